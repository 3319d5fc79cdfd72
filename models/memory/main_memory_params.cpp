// Keys every chip with device memory (HBM) shares, and those of the power limit and idle power
// every chip with one shares, whatever its kind: declared once here, read by each kind's typed chip
// (models/gpu/gpu_chip.cpp, models/systolic/systolic_chip.cpp, models/cpu/cpu_chip.cpp,
// models/spatial/spatial_chip.cpp: per chip).
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration main_memory_params({"gpu", "systolic"}, {
    quantity_param("memory.hbm.size", Dimension::bytes, "device memory capacity"),
    quantity_param("memory.hbm.bandwidth", Dimension::bandwidth, "device memory bandwidth (datasheet)"),
    quantity_param("memory.hbm.latency", Dimension::time, "load-to-use latency of a device-memory access"),
    fraction_param("memory.hbm.efficiency", "achievable fraction of the datasheet bandwidth (refresh, "
                   "bank and turnaround losses)").defaults_to("0.9"),
    quantity_param("power.hbm_energy_per_byte", Dimension::energy, "energy of one byte read or written in HBM")
        .defaults_to("0 J").zero_allowed(),
});

const ParamRegistration power_limit_params({"gpu", "systolic", "cpu", "spatial"}, {
    quantity_param("power.tdp", Dimension::power, "board (a CPU: package) power limit"),
    quantity_param("power.idle", Dimension::power, "board (a CPU: package) power with nothing running (clocks up)")
        .defaults_to("0 W").zero_allowed(),
});

}  // namespace
}  // namespace hwsim
