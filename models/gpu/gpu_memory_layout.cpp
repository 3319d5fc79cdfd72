#include "models/gpu/gpu_memory_layout.h"

#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// The tile model keeps one cache and one bandwidth server per partition: far above any chip
// (MI300X: 8 XCDs), far below what would exhaust memory.
constexpr double kMaxPartitions = 1024;

const ParamRegistration layout_params({"gpu"}, {
    count_param("gpu.partitions",
                "compute partitions, each with its own SMs and a private slice of the L2 (AMD XCDs: 8 on MI300X); "
                "a kernel's thread blocks are dealt round-robin over them. 1 = one L2 shared by every SM")
        .defaults_to("1").at_most(kMaxPartitions),
    quantity_param("memory.mall.size", Dimension::bytes,
                   "memory-side cache between the L2s and device memory (AMD Infinity Cache / MALL); 0 = none")
        .defaults_to("0 B").zero_allowed(),
    quantity_param("memory.mall.bandwidth", Dimension::bandwidth,
                   "memory-side cache bandwidth, all channels together (every L2 miss and write-back crosses it)")
        .defaults_to("0 B/s").zero_allowed(),
    quantity_param("memory.mall.latency", Dimension::time, "load-to-use latency of a memory-side cache hit")
        .defaults_to("0 s").zero_allowed(),
    quantity_param("power.mall_energy_per_byte", Dimension::energy, "energy of one byte through the memory-side cache")
        .defaults_to("0 J").zero_allowed(),
});

}  // namespace

GpuMemoryLayout GpuMemoryLayout::from_config(const Config& c, int sm_count) {
  GpuMemoryLayout m;
  m.partitions = int(c.whole("gpu.partitions"));
  if (sm_count % m.partitions != 0)
    config_error(fmt::format("{}: gpu.partitions: {} partitions do not split {} SMs evenly (gpu.sm_count must be a "
                             "multiple of gpu.partitions, e.g. 304 CUs in 8 XCDs of 38)",
                             c.value("gpu.partitions").origin, m.partitions, sm_count));
  m.mall_bytes = c.number("memory.mall.size");
  m.mall_bandwidth = c.number("memory.mall.bandwidth");
  m.mall_latency = c.number("memory.mall.latency");
  m.mall_joules_per_byte = c.number("power.mall_energy_per_byte");
  if (m.has_mall() && (m.mall_bandwidth <= 0 || m.mall_latency <= 0))
    config_error(fmt::format("{}: memory.mall: a memory-side cache of {} B needs memory.mall.bandwidth and "
                             "memory.mall.latency above 0 (e.g. 17.2 TB/s and 218 ns on MI300X)",
                             c.value("memory.mall.size").origin, m.mall_bytes));
  return m;
}

}  // namespace hwsim
