#pragma once
// An op's kernels depend on its tensors' identities and its L2 object range only as labels (the
// caches and the tile machine tell objects apart by id and nothing else: kernel_names.h). So an
// op is lowered once per (class, shape, identity pattern) with canonical identities, and every
// op alike (layer 7's QKV GEMM and layer 8's, each step's at one batch) takes those kernels with
// its own identities put in: the same bits as lowering it (u429). A serving run's steps change
// shape every step while their layers repeat: without this each of a step's 32 layers was lowered.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "models/gpu/gpu_chip.h"
#include "models/gpu/tile/packed_kernel.h"
#include "ops/op.h"
#include "ops/tensor_ids.h"

namespace hwsim {

// Kernels as a device runs them: packed, their configs in the chip's vocabulary (lowerings speak
// NVIDIA's words).
std::vector<PackedKernel> pack_kernels(std::vector<Kernel> kernels, const GpuChip& chip);

// Canonical identities -> an op's own: tensors kInput/kOutput of the canonical lowering become
// `input`/`output`, and op objects move from the canonical base to `object_base`.
struct IdentityRenaming {
  std::int64_t input = -1, output = -1, object_base = 0;
  std::string_view name;       // the op's name (kernels are named name + suffix; the op outlives this)
  std::size_t canonical_name;  // length of the canonical op's name in its kernels' names
  std::int64_t object(std::int64_t id) const;
  std::int64_t tensor(std::int64_t t) const;  // an object's tensor (kernel_names.h's numbering)
  // The op's summary; its names are `like` (a kernel's at this position before) when they are the
  // ones the renaming gives, so that alike ops share them.
  KernelSummary summary(const KernelSummary& canonical, const std::shared_ptr<const KernelNames>& like = nullptr) const;
  PackedKernel kernel(const PackedKernel& canonical) const;
};

class LoweringMemo {
 public:
  struct Lowered {
    std::string name;  // of the op lowered first (its kernels' names begin with it)
    std::vector<KernelSummary> summaries;
    std::vector<PackedKernel> kernels;  // empty when not held (too many CTAs)
    bool held = false;
  };
  // The canonical lowering of `op` with tensors `ids` (lowered now if new) and the renaming that
  // gives the op's own kernels with its L2 objects from `object_base`.
  const Lowered& lowered(const Op& op, const TensorIds& ids, std::int64_t object_base, const GpuChip& chip,
                         IdentityRenaming& renaming);

  // Bounds: the memo is emptied when it holds this many shapes; kernels are held while their CTAs
  // number at most kMaxHeldCtas in all (about 5 MB).
  static constexpr std::size_t kMaxShapes = 4096;
  static constexpr std::size_t kMaxHeldCtas = std::size_t(1) << 16;

 private:
  struct Key {
    std::string bytes;  // op class, shape (its bytes) and identity pattern
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const { return std::hash<std::string>{}(k.bytes); }
  };
  std::unordered_map<Key, Lowered, KeyHash> memo_;
  Key probe_;  // the key looked up (its buffer reused from op to op)
  std::size_t held_ctas_ = 0;
};

}  // namespace hwsim
