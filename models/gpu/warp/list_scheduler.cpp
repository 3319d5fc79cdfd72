#include "models/gpu/warp/list_scheduler.h"

#include <algorithm>
#include <vector>

namespace hwsim::warp {
namespace {

bool is_fence(const Instr& in) {
  return in.op == Op::bar || in.op == Op::bra || in.op == Op::exit || in.op == Op::nop || in.op == Op::vote ||
         in.op == Op::activemask || in.op == Op::mma || in.op == Op::wgmma || in.op == Op::wgmma_fence ||
         in.op == Op::wgmma_commit || in.op == Op::wgmma_wait || in.op == Op::cp_async || in.op == Op::cp_commit ||
         in.op == Op::cp_wait ||
         std::any_of(in.src.begin(), in.src.end(), [](const Operand& o) { return o.kind == Operand::k_special && o.special == Special::clock; });
}
bool is_memory(const Instr& in) { return in.op == Op::ld || in.op == Op::st || in.op == Op::atom_add || in.op == Op::ldmatrix; }
bool writes_memory(const Instr& in) { return in.op == Op::st || in.op == Op::atom_add; }
bool may_alias(const Instr& a, const Instr& b) {
  return a.space == b.space || a.space == Space::generic || b.space == Space::generic;
}

int latency(const Instr& in, const ScheduleLatencies& l) {
  if (in.op == Op::ld || in.op == Op::atom_add || in.op == Op::ldmatrix) return in.space == Space::shared ? l.shared_load : l.global_load;
  if (in.op == Op::shfl) return l.shared_load;
  if (in.pipe == Pipe::sfu) return l.sfu;
  return l.alu;
}

// Registers an instruction reads (a predicated write reads its old value too) and writes.
void reads_writes(const Instr& in, std::vector<int>& r, std::vector<int>& w) {
  r.clear();
  w.clear();
  for (const auto& s : in.src)
    if (s.kind == Operand::k_reg) r.push_back(s.reg);
  if (in.guard >= 0) r.push_back(in.guard);
  for (auto d : in.dst) {
    w.push_back(d);
    if (in.guard >= 0) r.push_back(d);
  }
}

// Reorders code[begin, end): one basic block.
void schedule_block(std::vector<Instr>& code, int begin, int end, const ScheduleLatencies& lat) {
  const int n = end - begin;
  if (n < 3) return;
  std::vector<std::vector<std::pair<int, int>>> succ(static_cast<std::size_t>(n));  // (successor, latency)
  std::vector<int> preds(static_cast<std::size_t>(n), 0);
  auto edge = [&](int a, int b, int l) {
    succ[std::size_t(a)].push_back({b, l});
    ++preds[std::size_t(b)];
  };
  std::vector<int> ra, wa, rb, wb;
  for (int j = 0; j < n; ++j) {
    const Instr& b = code[std::size_t(begin + j)];
    reads_writes(b, rb, wb);
    for (int i = 0; i < j; ++i) {
      const Instr& a = code[std::size_t(begin + i)];
      reads_writes(a, ra, wa);
      auto hits = [](const std::vector<int>& x, const std::vector<int>& y) {
        return std::any_of(x.begin(), x.end(), [&](int v) { return std::find(y.begin(), y.end(), v) != y.end(); });
      };
      int l = -1;
      if (hits(wa, rb)) l = latency(a, lat);                          // read after write
      else if (hits(ra, wb) || hits(wa, wb)) l = 0;                    // write after read or write
      else if (is_fence(a) || is_fence(b)) l = 0;
      else if (is_memory(a) && is_memory(b) && (writes_memory(a) || writes_memory(b)) && may_alias(a, b)) l = 0;
      if (l >= 0) edge(i, j, l);
    }
  }
  std::vector<int> height(static_cast<std::size_t>(n), 0);
  for (int i = n - 1; i >= 0; --i) {
    int h = latency(code[std::size_t(begin + i)], lat);
    for (auto [s, l] : succ[std::size_t(i)]) h = std::max(h, l + height[std::size_t(s)]);
    height[std::size_t(i)] = h;
  }
  std::vector<int> ready, order;
  for (int i = 0; i < n; ++i)
    if (preds[std::size_t(i)] == 0) ready.push_back(i);
  while (!ready.empty()) {
    auto best = std::min_element(ready.begin(), ready.end(), [&](int a, int b) {
      return height[std::size_t(a)] != height[std::size_t(b)] ? height[std::size_t(a)] > height[std::size_t(b)] : a < b;
    });
    const int i = *best;
    ready.erase(best);
    order.push_back(i);
    for (auto [s, l] : succ[std::size_t(i)])
      if (--preds[std::size_t(s)] == 0) ready.push_back(s);
  }
  std::vector<Instr> block;
  block.reserve(std::size_t(n));
  for (int i : order) block.push_back(std::move(code[std::size_t(begin + i)]));
  std::move(block.begin(), block.end(), code.begin() + begin);
}

}  // namespace

void schedule_basic_blocks(Program& p, const ScheduleLatencies& lat) {
  const int n = int(p.code.size());
  std::vector<char> leader(std::size_t(n) + 1, 0);
  leader[0] = 1;
  for (int i = 0; i < n; ++i) {
    const Instr& in = p.code[std::size_t(i)];
    if (in.op == Op::bra) {
      if (in.target >= 0 && in.target <= n) leader[std::size_t(in.target)] = 1;
      leader[std::size_t(i) + 1] = 1;
    }
    if (in.op == Op::exit) leader[std::size_t(i) + 1] = 1;
  }
  for (int b = 0; b < n;) {
    int e = b + 1;
    while (e < n && !leader[std::size_t(e)]) ++e;
    schedule_block(p.code, b, e, lat);
    b = e;
  }
}

}  // namespace hwsim::warp
