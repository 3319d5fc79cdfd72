// The step cache holds at most StepCache::kMaxBytes of variants: past it the pairs least recently
// stored or used go first, never the one just stored. A mixed-length trace makes a new pair nearly
// every step; unbounded, a 10,000-request run held 1.4 GB of them.
#include <doctest/doctest.h>

#include "run/serving/serving_step_cache.h"

using namespace hwsim;

namespace {
struct Effect : StepEffect {
  std::size_t n;
  explicit Effect(std::size_t bytes) : n(bytes) {}
  std::size_t bytes() const override { return n; }
};

StepCache::Variant variant(double seconds, std::size_t bytes) {
  return {seconds, std::make_shared<const Effect>(bytes), std::make_shared<const RunTotals>()};
}
}  // namespace

TEST_CASE("step cache: variants are held within the byte bound, least recently used pairs dropped first") {
  StepCache cache;
  const std::size_t big = StepCache::kMaxBytes / 4;  // four such pairs fill it
  for (std::int64_t k = 0; k < 4; ++k) cache.store({k}, {k}, variant(double(k), big - 1024));
  for (std::int64_t k = 0; k < 4; ++k) CHECK(cache.find({k}, {k}).size() == 1);
  // pair 0 is used: pair 1 is now the least recently used and goes when a fifth arrives
  StepCache::Variant v0 = cache.find({0}, {0}).front();
  cache.used({0}, {0}, v0);
  cache.store({4}, {4}, variant(4, big - 1024));
  CHECK(cache.find({1}, {1}).empty());
  CHECK(cache.find({0}, {0}).size() == 1);
  CHECK(cache.find({4}, {4}).size() == 1);
  // a variant larger than the whole bound stays alone (the one just stored is never dropped)
  cache.store({9}, {9}, variant(9, StepCache::kMaxBytes * 2));
  CHECK(cache.find({9}, {9}).size() == 1);
  for (std::int64_t k : {0, 2, 3, 4}) CHECK(cache.find({k}, {k}).empty());
  // using a dropped pair's variant is harmless
  cache.used({1}, {1}, v0);
}
