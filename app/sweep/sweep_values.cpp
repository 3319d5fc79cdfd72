#include "app/sweep/sweep_values.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/error.h"
#include "sim/units.h"

namespace hwsim {

namespace {
std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

[[noreturn]] void fail(const std::string& key, const std::string& item, const std::string& what) {
  usage_error(fmt::format("--vary {}: '{}': {}", key, item, what));
}

ParsedQuantity bound(const std::string& key, const std::string& item, const std::string& text) {
  std::string why;
  auto q = parse_quantity(trim(text), &why);
  if (!q) fail(key, item, fmt::format("bad range bound '{}': {}", trim(text), why));
  return *q;
}

// A generated value as a user would write it: a bare whole number as an integer, a quantity with
// its SI prefix and unit, with the fewest significant digits (6 at least) that read back to the
// very same number (1MiB..4MiB*2 gives "2.097152 MB", exactly 2 MiB, not "2.09715 MB").
std::string write_value(double v, Dimension d) {
  if (d == Dimension::none) {
    if (v == std::floor(v) && std::fabs(v) < 9e15) return fmt::format("{}", static_cast<long long>(v));
    return fmt::format("{}", v);  // the shortest text that reads back exactly
  }
  std::string text;
  for (int digits = 6; digits <= 17; ++digits) {
    text = format_quantity(v, d, digits);
    auto back = parse_quantity(text);
    if (back && back->value == v) break;
  }
  return text;
}

// One range item "A..B" + optional "*F", ":N" or "+S".
void expand_range(const std::string& key, const std::string& item, std::vector<std::string>& out, std::size_t held) {
  auto dots = item.find("..");
  std::string start_text = item.substr(0, dots), rest = item.substr(dots + 2);
  auto op = rest.find_last_of("*:+");
  // "+" may be part of an exponent ("1e+3"): only a '+' not preceded by 'e'/'E' is a step.
  if (op != std::string::npos && rest[op] == '+' && op > 0 && (rest[op - 1] == 'e' || rest[op - 1] == 'E'))
    op = std::string::npos;
  char kind = op == std::string::npos ? '+' : rest[op];
  std::string end_text = op == std::string::npos ? rest : rest.substr(0, op);
  std::string by_text = op == std::string::npos ? "1" : trim(rest.substr(op + 1));
  ParsedQuantity a = bound(key, item, start_text), b = bound(key, item, end_text);
  if (a.dimension != b.dimension)
    fail(key, item, fmt::format("the bounds have different units ({} and {})", dimension_name(a.dimension),
                                dimension_name(b.dimension)));
  if (a.value > b.value) fail(key, item, "empty range: the start is above the end");
  char* end = nullptr;
  double by = std::strtod(by_text.c_str(), &end);
  if (by_text.empty() || *end != '\0' || !std::isfinite(by))
    fail(key, item, fmt::format("'{}' after '{}' is not a number", by_text, kind));
  auto too_many = [&] {
    fail(key, item, fmt::format("more than {} values{}", kMaxSweepValues, held > 0 ? " in all the sweep's lists" : ""));
  };
  // The range's length, known before any value is written: refused at once when over the bound.
  auto expect = [&](double count) {
    if (!(count <= double(kMaxSweepValues - std::min(held, kMaxSweepValues)))) too_many();
  };
  auto push = [&](double v) {
    if (held + out.size() >= kMaxSweepValues) too_many();
    out.push_back(write_value(v, a.dimension));
  };
  const double slack = 1 + 1e-9;  // so that 0.1-sized steps reach the end despite rounding
  if (kind == '*') {
    if (by <= 1) fail(key, item, "the factor after '*' must be above 1 (1..256*2)");
    if (a.value <= 0) fail(key, item, "a geometric range starts above 0");
    expect(std::floor(std::log(b.value / a.value) / std::log(by)));  // one fewer than it makes, at most
    for (double v = a.value; v <= b.value * slack; v *= by) push(v);
  } else if (kind == ':') {
    if (by < 1 || by != std::floor(by)) fail(key, item, "the count after ':' must be a whole number ≥ 1 (1TB/s..8TB/s:8)");
    expect(by);
    auto n = static_cast<long long>(by);
    if (n == 1) return push(a.value);
    for (long long i = 0; i < n; ++i) push(a.value + (b.value - a.value) * double(i) / double(n - 1));
  } else {
    if (by <= 0) fail(key, item, "the step after '+' must be above 0 (0..1024+128)");
    double span = b.value - a.value;
    expect(std::floor(span / by));  // one fewer than it makes, at most
    for (long long i = 0; a.value + by * double(i) <= a.value + span * slack + 1e-12; ++i) push(a.value + by * double(i));
  }
}
}  // namespace

std::vector<std::string> expand_sweep_values(const std::string& key, const std::string& text, std::size_t held) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (true) {
    auto comma = text.find(',', begin);
    std::string item = trim(text.substr(begin, comma == std::string::npos ? std::string::npos : comma - begin));
    if (item.empty()) usage_error(fmt::format("--vary {}={}: an empty value (values are separated by single commas)", key, text));
    if (item.find("..") != std::string::npos) expand_range(key, item, out, held);
    else out.push_back(item);
    if (held + out.size() > kMaxSweepValues)
      usage_error(fmt::format("--vary {}: more than {} values in all the sweep's lists", key, kMaxSweepValues));
    if (comma == std::string::npos) break;
    begin = comma + 1;
  }
  return out;
}

}  // namespace hwsim
