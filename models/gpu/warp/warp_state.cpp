#include "models/gpu/warp/warp_state.h"

#include <algorithm>

namespace hwsim::warp {

void WarpState::start(const Program& program, const std::vector<std::uint64_t>& param_values, std::uint64_t cta, int warp,
                      int threads) {
  cta_id = cta;
  warp_in_cta = warp;
  const int lanes = std::min(32, threads - warp * 32);
  live = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1);
  stack.assign(1, SimtEntry{0, -1, live});
  regs.assign(program.regs.size() * 32, 0);
  local.assign(program.local_bytes * 32, 0);
  for (std::size_t i = 0; i < program.params.size(); ++i)
    for (int l = 0; l < 32; ++l) reg(program.params[i].reg, l) = param_values[i];
  for (const auto& s : program.shared)
    if (s.has_reg)
      for (int l = 0; l < 32; ++l) reg(s.reg, l) = s.offset;
  at_barrier = done = false;
  cp_open = wg_open = 0;
  cp_groups.clear();
  wg_groups.clear();
}

const char* stall_name(Stall s) {
  static const char* names[] = {"selected", "long_scoreboard", "short_scoreboard", "wait", "barrier",
                                "mio_throttle", "lg_throttle", "math_pipe_throttle", "branch_resolving",
                                "not_selected", "no_instruction"};
  return names[int(s)];
}

const char* stall_explanation(Stall s) {
  switch (s) {
    case Stall::selected: return "the warp issued an instruction";
    case Stall::long_scoreboard: return "waiting for a global-memory (L1/L2/HBM) load result; more resident warps or more loads in flight per warp hide it";
    case Stall::short_scoreboard: return "waiting for a shared-memory, shuffle or SFU result; bank-conflict replays lengthen it";
    case Stall::wait: return "waiting for a fixed-latency ALU result (a dependent instruction chain)";
    case Stall::barrier: return "waiting at bar.sync for the other warps of the block";
    case Stall::mio_throttle: return "the shared-memory pipe is backed up (often bank-conflict replays)";
    case Stall::lg_throttle: return "the L1 tag stage is backed up with global accesses (uncoalesced accesses need many lines)";
    case Stall::math_pipe_throttle: return "the execution pipe for this instruction class is busy";
    case Stall::branch_resolving: return "waiting for a branch target to resolve";
    case Stall::not_selected: return "ready, but the scheduler issued another warp (enough parallelism)";
    case Stall::no_instruction: return "no instruction to issue";
    default: return "";
  }
}

}  // namespace hwsim::warp
