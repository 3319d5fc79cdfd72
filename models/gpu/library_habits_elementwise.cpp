#include "models/gpu/library_habits_elementwise.h"

#include "sim/config/config.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration elementwise_habit_params({"gpu"}, {
    real_param("gpu.elementwise.unvectorized_ops_per_element",
               "FP32-pipe lane instructions per element of PyTorch's unvectorised elementwise kernels (a cast "
               "between dtypes, a broadcast operand: dequant=eager's cast and scale); fitted on an H100 probe, "
               "scripts/measure/elementwise_inflight.py")
        .defaults_to("56")
        .at_least(0.1)
        .at_most(1e4),
    real_param("gpu.elementwise.softmax_ops_per_element",
               "FP32-pipe lane instructions per element of PyTorch's shared-memory block softmax (rows longer "
               "than a warp holds, up to 48 KiB); fitted on one H100 record (softmax 8192 x 8192 bf16)")
        .defaults_to("90")
        .zero_allowed()
        .at_most(1e4),
    real_param("gpu.elementwise.scattered_read_clocks",
               "SM clocks per element an elementwise kernel reads from a line of its own (x.t().contiguous(): "
               "every lane of a warp access in another row), the L1's lookup and fill of a line that misses; "
               "fitted on an H100 probe of L2- and HBM-resident transposes, scripts/measure/kernel_shapes_probe.py")
        .defaults_to("2")
        .zero_allowed()
        .at_most(1e4),
});

}  // namespace

ElementwiseHabits ElementwiseHabits::from_config(const Config& c) {
  ElementwiseHabits h;
  h.unvectorized_ops_per_element = c.number("gpu.elementwise.unvectorized_ops_per_element");
  h.softmax_ops_per_element = c.number("gpu.elementwise.softmax_ops_per_element");
  h.scattered_read_clocks = c.number("gpu.elementwise.scattered_read_clocks");
  return h;
}

}  // namespace hwsim
