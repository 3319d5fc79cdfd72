#include "models/gpu/kernel.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "sim/error.h"

namespace hwsim {

void check_kernel_size(const std::string& op_name, double items, const char* what) {
  if (items > kMaxWorkItemsPerKernel)
    workload_error(fmt::format("{}: {:.3g} {} in one kernel: more than the tile model simulates ({:.3g}); "
                               "use a smaller shape (or split the op)", op_name, items, what, kMaxWorkItemsPerKernel));
}

OperandList tensor_blocks(std::int64_t tensor, double begin, double end) {
  OperandList out;  // the one object returned (no copy or move of its inline storage)
  if (end <= begin) return out;
  if (tensor < 0) {
    out.push_back({-1, end - begin});
    return out;
  }
  auto first = std::int64_t(std::floor(begin / kTensorBlock));
  auto last = std::int64_t(std::ceil(end / kTensorBlock));
  out.reserve(std::size_t(last - first));  // a GEMM's panel spans many blocks: one allocation
  for (std::int64_t b = first; b < last; ++b) {
    double lo = std::max(begin, double(b) * kTensorBlock), hi = std::min(end, double(b + 1) * kTensorBlock);
    // Tensor ids (< 2^15) sit above 2^24 blocks (1 TiB per tensor), below op objects (>= 2^40).
    out.push_back({(tensor << 24) + b, hi - lo, lo - double(b) * kTensorBlock});
  }
  return out;
}

}  // namespace hwsim
