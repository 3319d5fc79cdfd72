// Private L2 slices per partition (AMD XCDs): an object read on two partitions is fetched twice
// from the next level; one shared L2 of the same total size fetches it once.
#include <doctest/doctest.h>

#include "models/gpu/tile/partitioned_l2.h"

using namespace hwsim;

TEST_CASE("partitioned L2: an operand read on two partitions misses in each, a shared L2 hits") {
  constexpr double kKiB = 1024, kBlock = 512 * kKiB;
  PartitionedCaches two(2, 2048 * kKiB, 0);  // 1 MiB per partition
  CHECK(two.read(0, 7, kBlock, 0).l2_miss == kBlock);
  CHECK(two.read(1, 7, kBlock, 0).l2_miss == kBlock);  // the other partition's copy is not seen
  CHECK(two.read(0, 7, kBlock, 0).l2_miss == 0);       // its own copy is
  CHECK(two.read(1, 7, kBlock, 0).l2_miss == 0);

  PartitionedCaches one(1, 2048 * kKiB, 0);
  CHECK(one.read(0, 7, kBlock, 0).l2_miss == kBlock);
  CHECK(one.read(0, 7, kBlock, 0).l2_miss == 0);
}

TEST_CASE("partitioned L2: each partition holds its share of the total capacity") {
  constexpr double kMiB = 1024.0 * 1024;
  PartitionedCaches eight(8, 32 * kMiB, 0);  // MI300X: 8 x 4 MiB
  CHECK(eight.read(3, 1, 3 * kMiB, 0).l2_miss == 3 * kMiB);
  CHECK(eight.read(3, 2, 2 * kMiB, 0).l2_miss == 2 * kMiB);  // 5 MiB > 4 MiB: object 1 is evicted
  CHECK(eight.read(3, 1, 3 * kMiB, 0).l2_miss == 3 * kMiB);
  PartitionedCaches shared(1, 32 * kMiB, 0);
  shared.read(0, 1, 3 * kMiB, 0);
  shared.read(0, 2, 2 * kMiB, 0);
  CHECK(shared.read(0, 1, 3 * kMiB, 0).l2_miss == 0);
}
