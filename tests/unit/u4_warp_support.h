#pragma once
// Shared helpers of the warp-model unit tests (u4*): run a kernel without SystemC.
#include <string>
#include <vector>

#include "ops/device.h"
#include "models/gpu/warp/kernel_launch.h"
#include "models/gpu/warp/parser.h"
#include "models/gpu/warp/warp_params.h"
#include "sim/config/config.h"

namespace hwsim::warp::test {

inline const WarpParams& h100() {
  static WarpParams p = WarpParams::from_config(load_chip("configs/h100.toml", {"gpu.core.model=warp"}));
  return p;
}

inline std::unique_ptr<KernelRun> run(const Program& prog, std::int64_t grid, std::int64_t block,
                                      std::map<std::string, std::string> args = {}, std::int64_t max_cycles = 0) {
  LaunchOptions o;
  o.args.grid = grid;
  o.args.block = block;
  o.args.args = std::move(args);
  o.max_cycles = max_cycles;
  return simulate_kernel(h100(), prog, o);
}

inline std::unique_ptr<KernelRun> run_file(const std::string& name, std::int64_t grid, std::int64_t block,
                                           std::map<std::string, std::string> args = {}) {
  return run(load_kernel("workloads/kernels/" + name + ".hwk"), grid, block, std::move(args));
}

inline std::vector<double> values(const KernelRun& r, const std::string& buffer) {
  const Buffer* b = r.memory.by_name(buffer);
  std::vector<double> out;
  for (std::uint64_t i = 0; i < b->count; ++i) out.push_back(r.memory.element_value(*b, i));
  return out;
}

}  // namespace hwsim::warp::test
