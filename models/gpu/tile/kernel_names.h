#pragma once
// A kernel and the caches' contents with their L2 objects renamed, for exact reuse of a kernel's
// simulation (kernel_replay.h). The caches and the tile machine use an object's id only to tell
// objects apart (its table slot, never an order: the LRU lists and write-backs follow recency), so
// a kernel runs alike on any two (kernel, caches) pairs that are equal once their objects are
// renamed by a bijection. The renaming here keeps a tensor's block structure and renames tensors:
// - a kernel's tensors (an object's tensor: id >> 24 for a tensor block, the id itself for an op
//   object, ops/tensor_ids.h) are numbered in order of first appearance in its operands;
// - any other tensor the caches hold is numbered in order of first appearance in the contents
//   (each L2 most recent first, then the memory-side cache, then write-backs in flight).
// Layer 7's QKV GEMM and layer 8's are then the same kernel, and the caches before them the same
// contents when the layers before left them alike.
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "models/gpu/tile/packed_kernel.h"
#include "models/gpu/tile/partitioned_l2.h"

namespace hwsim {

// A 128-bit digest (two 64-bit multiply-rotate hashes of different constants): equal digests
// stand for equal contents (a chance collision of two of a run's few thousand digests: ~1e-31).
struct Digest {
  std::uint64_t a = 0x9e3779b97f4a7c15ULL, b = 0xc2b2ae3d27d4eb4fULL;
  void add(std::uint64_t word) {
    a = std::rotl(a ^ word, 29) * 0x9e3779b97f4a7c15ULL;
    b = std::rotl(b + word, 31) * 0xc2b2ae3d27d4eb4fULL + 0x165667b19e3779f9ULL;
  }
  void add(double x);
  bool operator==(const Digest&) const = default;
};
struct DigestHash {
  std::size_t operator()(const Digest& d) const;
};

// A packed kernel's tensors by canonical number, and the digest of the kernel renamed (every
// figure the machine reads; its name left out). Computed once per packed kernel (kernel_names()).
struct KernelNames {
  std::vector<std::int64_t> tensors;
  Digest shape;
  std::vector<std::pair<std::int64_t, std::uint32_t>> by_tensor;  // (tensor, its number), sorted
  // The canonical number of `tensor`, or -1.
  std::int64_t find(std::int64_t tensor) const;
};
const KernelNames& kernel_names(const PackedKernel& kernel);

// Caches' contents renamed for one kernel: `others` the tensors they hold that the kernel does not
// use (by canonical number), `digest` of the contents with canonical ids (rename_like gives them).
struct RenamedState {
  std::vector<std::int64_t> others;
  Digest digest;
};
RenamedState rename_state(const PartitionedCaches::State& state, const KernelNames& names);
// `canonical` (a state renamed for a kernel alike) with the names of `names` and `others` put back.
PartitionedCaches::State restore_names(const PartitionedCaches::State& canonical, const KernelNames& names,
                                       const std::vector<std::int64_t>& others);
// rename_state of the state `canonical` stands for (restore_names(canonical, N, O), whatever the
// names N and others O), for a kernel whose tensor k has code codes[k] in `canonical` (an id's bits
// above its block: 2i for N's tensor i, 2j + 1 for O[j], -1 when in neither); its others are codes
// of `canonical` (tensor_of_code gives their names). A function of `canonical` and `codes` alone:
// what a chain of replayed kernels memoizes (KernelOutcome::link).
RenamedState rename_linked(const PartitionedCaches::State& canonical, std::span<const std::int64_t> codes);
// The code of `tensor` in a state renamed for `names` with `others` (rename_linked's), or -1.
std::int64_t code_of(std::int64_t tensor, const KernelNames& names, std::span<const std::int64_t> others);
// The tensor a code of a state renamed for `names` with `others` stands for.
std::int64_t tensor_of_code(std::int64_t code, const KernelNames& names, std::span<const std::int64_t> others);
// `state` with canonical ids, renamed as `renamed` was made (`state` itself, or the state after the
// kernel ran: its objects are the kernel's or those held before); false when it holds a tensor of
// neither.
bool rename_like(const PartitionedCaches::State& state, const KernelNames& names, const RenamedState& renamed,
                 PartitionedCaches::State& out);

}  // namespace hwsim
