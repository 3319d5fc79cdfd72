// Keys every chip file has, whatever its kind (declared once, for every kind).
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration chip_params({
    text_param("name", "chip name shown in results"),
    text_param("description", "one line about the chip and its sources").defaults_to(""),
    text_param("kind", "what the chip is: a registered device kind (gpu, systolic, mcu, cpu, spatial); chooses which components "
                       "and keys the file may have").defaults_to("gpu"),
    // The link between the chip and its host's memory: what a serving engine's KV swap crosses
    // (docs/serving.md). Each copy costs copy_overhead plus its bytes at bandwidth × efficiency.
    quantity_param("host_link.bandwidth", Dimension::bandwidth,
                   "bytes/s each way between the chip and host memory (PCIe x16, NVLink-C2C); 0: not described")
        .defaults_to("0 B/s").zero_allowed(),
    fraction_param("host_link.efficiency", "share of host_link.bandwidth a large copy of pinned host memory reaches "
                                           "(packet headers, flow control, DMA)").defaults_to("1"),
    quantity_param("host_link.copy_overhead", Dimension::time,
                   "cost of one copy beyond its bytes (issue, DMA set-up, completion)").defaults_to("0 s").zero_allowed(),
});

}  // namespace
}  // namespace hwsim
