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

}  // namespace hwsim
