#include "models/gpu/tile/lowering_memo.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <variant>

#include "models/gpu/tile/kernel_names.h"
#include "models/gpu/tile/tile_step_lowering.h"

namespace hwsim {
namespace {

// The canonical lowering's identities: two tensor ids no step gives (ops/tensor_ids.h keeps ids
// below kMaxTensorIds) and the first op's object range.
constexpr std::int64_t kInput = kMaxTensorIds, kOutput = kMaxTensorIds + 1;
constexpr std::int64_t kOpObjects = std::int64_t(1) << kOpObjectBits;
constexpr int kBlockBits = 24;  // a tensor block's index within its tensor (cta_list.h)
constexpr std::int64_t kBlockMask = (std::int64_t(1) << kBlockBits) - 1;

// Streamed (< 0) stays streamed; one tensor read and written stays one tensor.
TensorIds canonical_ids(const TensorIds& ids) {
  TensorIds c{ids.input < 0 ? -1 : kInput, ids.output < 0 ? -1 : kOutput};
  if (ids.input >= 0 && ids.input == ids.output) c.output = kInput;
  return c;
}

// Appends one scalar field's bytes (a scalar has no padding).
template <typename T>
void put(std::string& k, const T& v) {
  static_assert(std::is_scalar_v<T>);
  k.append(reinterpret_cast<const char*>(&v), sizeof(v));
}

// Each shape's fields one by one, so the key never holds padding bytes (uninitialised: the same
// shape would miss at random) or a string's heap pointer. The sizes guard the lists: a field added
// to a shape changes its size, and its key must then name the new field.
static_assert(sizeof(GemmOp) == 120 && sizeof(GemmLayout) == 48, "a GemmOp field changed: update put_shape");
void put_shape(std::string& k, const GemmOp& g) {
  for (auto v : {g.m, g.n, g.k, g.groups}) put(k, v);
  for (auto v : {g.a, g.b, g.out, g.acc}) put(k, v);
  put(k, g.dequant), put(k, g.quant_kernel), put(k, g.scale);
  const GemmLayout& l = g.layout;
  for (auto v : {l.lda, l.ldb, l.ldc, l.offset_a, l.offset_b, l.offset_c}) put(k, v);
  put(k, g.runtime_pads_rows);
}
static_assert(sizeof(StreamOp) == 56, "a StreamOp field changed: update put_shape");
void put_shape(std::string& k, const StreamOp& s) {
  for (double v : {s.bytes_read, s.bytes_written, s.flops, s.strided_read_bytes, s.element_bytes}) put(k, v);
  put(k, s.rows), put(k, s.unvectorized);
}
static_assert(sizeof(AttentionOp) == 80, "an AttentionOp field changed: update put_shape");
void put_shape(std::string& k, const AttentionOp& a) {
  for (auto v : {a.batch, a.heads, a.kv_heads, a.head_dim, a.q_len, a.kv_len, a.window}) put(k, v);
  put(k, a.causal), put(k, a.dtype), put(k, a.kv_dtype), put(k, a.impl);
}
void put_shape(std::string& k, const CollectiveOp& c) {
  put(k, c.kind), put(k, c.bytes), put(k, c.axis), put(k, c.ranks), put(k, c.dtype);
  k.append(c.algo).push_back('\0');
  k.append(c.proto).push_back('\0');
  put(k, c.async), put(k, c.reverse);
}
static_assert(sizeof(ConvOp) == 128, "a ConvOp field changed: update put_shape");
void put_shape(std::string& k, const ConvOp& c) {
  for (auto v : {c.batch, c.in_h, c.in_w, c.in_c, c.out_c, c.kernel_h, c.kernel_w, c.stride_h, c.stride_w}) put(k, v);
  for (auto v : {c.pad_top, c.pad_bottom, c.pad_left, c.pad_right, c.groups}) put(k, v);
  put(k, c.a), put(k, c.b), put(k, c.out), put(k, c.per_channel);
}
void put_shape(std::string& k, const RecordedOp& r) { put(k, r.seconds); }

// The op's class, its shape's fields and its identity pattern.
void key_bytes(const Op& op, const TensorIds& canonical, std::string& k) {
  k.assign(op.op_class);
  k.push_back('\0');
  k.push_back(char(op.shape.index()));
  std::visit([&](const auto& shape) { put_shape(k, shape); }, op.shape);
  put(k, canonical.input), put(k, canonical.output);
}

// Whether `names` are those `renaming` gives `canonical`'s.
bool renamed_alike(const KernelNames& names, const KernelNames& canonical, const IdentityRenaming& renaming) {
  if (names.shape != canonical.shape || names.tensors.size() != canonical.tensors.size()) return false;
  for (std::size_t i = 0; i < names.tensors.size(); ++i)
    if (names.tensors[i] != renaming.tensor(canonical.tensors[i])) return false;
  return true;
}

}  // namespace

std::vector<PackedKernel> pack_kernels(std::vector<Kernel> kernels, const GpuChip& chip) {
  std::vector<PackedKernel> packed;
  for (Kernel& k : kernels) {
    if (!chip.vocabulary.is_nvidia()) k.config = chip.vocabulary.reword(k.config);
    packed.push_back(PackedKernel::pack(std::move(k)));
  }
  return packed;
}

std::int64_t IdentityRenaming::tensor(std::int64_t t) const {
  if (t >= kOpObjects) return t - op_object_base(0) + object_base;
  return t == kInput ? input : t == kOutput ? output : t;
}

std::int64_t IdentityRenaming::object(std::int64_t id) const {
  if (id < 0 || id >= kOpObjects) return id < 0 ? id : tensor(id);
  return (tensor(id >> kBlockBits) << kBlockBits) | (id & kBlockMask);
}

KernelSummary IdentityRenaming::summary(const KernelSummary& canonical,
                                        const std::shared_ptr<const KernelNames>& like) const {
  KernelSummary s;
  s.kernel = canonical.kernel;
  s.kernel.name.replace(0, canonical_name, name);
  s.ctas = canonical.ctas;
  if (like && renamed_alike(*like, *canonical.names, *this)) {
    s.names = like;
    return s;
  }
  auto names = std::make_shared<KernelNames>();
  names->shape = canonical.names->shape;
  names->tensors.reserve(canonical.names->tensors.size());
  for (std::int64_t t : canonical.names->tensors) names->tensors.push_back(tensor(t));
  names->by_tensor.reserve(names->tensors.size());
  for (std::size_t i = 0; i < names->tensors.size(); ++i) names->by_tensor.emplace_back(names->tensors[i], std::uint32_t(i));
  std::sort(names->by_tensor.begin(), names->by_tensor.end());
  s.names = std::move(names);
  return s;
}

PackedKernel IdentityRenaming::kernel(const PackedKernel& canonical) const {
  PackedKernel p;
  p.kernel = canonical.kernel;
  p.kernel.name.replace(0, canonical_name, name);
  p.ctas = canonical.ctas;
  p.operands.reserve(canonical.operands.size());
  for (const OperandRead& o : canonical.operands) p.operands.push_back({object(o.object), o.bytes, o.offset});
  return p;
}

const LoweringMemo::Lowered& LoweringMemo::lowered(const Op& op, const TensorIds& ids, std::int64_t object_base,
                                                   const GpuChip& chip, IdentityRenaming& renaming) {
  const TensorIds canonical = canonical_ids(ids);
  key_bytes(op, canonical, probe_.bytes);
  auto it = memo_.find(probe_);
  if (it == memo_.end()) {
    if (memo_.size() >= kMaxShapes) memo_.clear(), held_ctas_ = 0;
    Lowered l;
    l.name = op.name;
    l.kernels = pack_kernels(lower_tile_op(op, canonical, op_object_base(0), chip), chip);
    std::size_t ctas = 0;
    for (const PackedKernel& k : l.kernels) ctas += k.ctas.size(), l.summaries.push_back(KernelSummary::of(k));
    l.held = held_ctas_ + ctas <= kMaxHeldCtas;
    if (l.held) held_ctas_ += ctas;
    else l.kernels.clear();
    it = memo_.emplace(probe_, std::move(l)).first;
  }
  renaming.input = ids.input, renaming.output = ids.output, renaming.object_base = object_base;
  renaming.name = op.name, renaming.canonical_name = it->second.name.size();
  return it->second;
}

}  // namespace hwsim
