#include "sim/memory_budget.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/error.h"

namespace hwsim {

namespace {
double& limit() {
  static double bytes = kDefaultMaxMemory;
  return bytes;
}
// Sizes in binary units, as --max-memory is written ("8 GiB", "2.18 TiB").
std::string binary_size(double bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int i = 0;
  while (bytes >= 1024 && i < 6) bytes /= 1024, ++i;
  return fmt::format("{:.3g} {}", bytes, units[i]);
}

double& charged() {
  static double bytes = 0;
  return bytes;
}

// How the limit came about when it is a share of --max-memory ("" when it is --max-memory).
std::string& share_note() {
  static std::string note;
  return note;
}
}  // namespace

void set_memory_limit(double bytes) {
  if (!(bytes > 0) || !std::isfinite(bytes)) usage_error("--max-memory: expected a size greater than zero (e.g. 16GiB)");
  limit() = bytes;
  share_note().clear();
}

void share_memory_limit(int parts) {
  if (parts <= 1) return;
  share_note() = fmt::format(" each of {} processes running at once (its {} shared)", parts, binary_size(limit()));
  limit() /= double(parts);
}

double memory_limit() { return limit(); }

void require_memory(double bytes, const std::string& what) {
  if (bytes <= limit()) return;
  workload_error(fmt::format("{} needs about {} of host memory, more than the {} that --max-memory allows{}",
                             what, binary_size(bytes), binary_size(limit()), share_note()));
}

void charge_memory(double bytes, const char* what) {
  charged() += bytes;
  if (charged() > limit()) require_memory(charged(), what);
}

void release_memory(double bytes) { charged() = std::max(0.0, charged() - bytes); }

double memory_charged() { return charged(); }

void reset_memory_charges() { charged() = 0; }

}  // namespace hwsim
