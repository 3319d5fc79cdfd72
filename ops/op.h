#pragma once
// An operation of a workload, as the frontend knows it: shapes and dtypes, never hardware.
// Lowering for a target (models/gpu/tile/...) turns ops into kernels.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "ops/attention_impl.h"
#include "ops/collective.h"
#include "ops/conv.h"
#include "ops/dtype.h"

namespace hwsim {

// How weights stored narrower than the activations (GemmOp::b narrower than ::a: int4, int8 or
// fp8 weight-only) reach the math: `fused` — one kernel unpacks and scales them in registers
// before the MMA (tinygemm, Marlin); `separate` — a dequantisation kernel writes them to memory in
// the activation dtype, then an ordinary GEMM runs; `eager` — the framework's own ops do it (int8,
// fp8: W.to(act) * scales, two elementwise kernels), then the GEMM. Ignored when a and b are the
// same format.
enum class Dequant { fused, separate, eager };

// Which fused weight-only kernel (Dequant::fused) runs a GEMM: `automatic` — the chip's software
// stack's (gpu.quant.fused_kernel); `tinygemm` — PyTorch's _weight_int4pack_mm design; `marlin` —
// vLLM's Marlin; `int8pack` — PyTorch's _weight_int8pack_mm on CUDA (int8 weights only: one
// thread per output element, a loop over K).
enum class QuantKernel { automatic, tinygemm, marlin, int8pack };

// Per-block scales of a GEMM's fp8 operands, applied inside the main loop (a scale per tensor, or
// per row and column, is applied once in the epilogue and is `none`): `block128` — one scale per
// 1×128 block of x along K and per 128×128 block of W (DeepSeek-V3's recipe: DeepGEMM, CUTLASS's
// blockwise kernels, cuBLASLt's VEC128/BLK128x128 modes); `mx32` — OCP MXFP8: one E8M0 scale per
// 32 elements along K of both operands. fp4 (NVFP4) and fp6 (MXFP6) carry their block scales in
// the format itself (their dtype), so their GEMMs leave this `none`.
enum class BlockScale { none, block128, mx32 };

// Where the operands sit in memory, for the alignment rules GEMM libraries follow (vector loads and
// TMA need 16-byte aligned rows and base addresses). Leading dimensions in elements between
// consecutive rows — x[M,K]: lda, W[N,K]: ldb, out[M,N]: ldc; 0 = packed (K, K, N) — and the
// offset of each matrix's first element from a 256-byte aligned allocation, in elements.
struct GemmLayout {
  std::int64_t lda = 0, ldb = 0, ldc = 0;
  std::int64_t offset_a = 0, offset_b = 0, offset_c = 0;
};

// out[M,N] = x[M,K] · W[N,K]ᵀ, repeated `groups` times on distinct weights (grouped GEMM, e.g.
// MoE experts). `a` is the activation dtype, `b` the weight dtype, `out` the result dtype, `acc`
// the dtype the products are summed in (fp32, as libraries do by default; fp16 is the
// half-precision accumulate some tensor cores run faster: models/gpu/tile/gemm_lowering).
struct GemmOp {
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t groups = 1;
  DType a = DType::bf16, b = DType::bf16, out = DType::bf16;
  DType acc = DType::fp32;
  Dequant dequant = Dequant::fused;  // weight-only formats (b narrower than a)
  QuantKernel quant_kernel = QuantKernel::automatic;  // with Dequant::fused
  BlockScale scale = BlockScale::none;  // per-block scales of fp8 operands (who applies them is the device's)
  GemmLayout layout;
  // Packed rows (no explicit leading dimension) are padded by the runtime to the widest vector
  // access: a compiled model graph (TensorRT, a TFLite delegate) lays out its own tensors. False: the
  // rows are as the call gives them (a PyTorch call, whose unaligned rows take the slow path).
  bool runtime_pads_rows = false;
};

// A pass over memory with little arithmetic (norms, activations, adds, copies): reads
// `bytes_read`, writes `bytes_written`, does `flops` of vector work.
struct StreamOp {
  double bytes_read = 0;
  double bytes_written = 0;
  double flops = 0;
  std::int64_t rows = 1;  // independent rows (row-wise kernels split work by row)
  // > 0: the reads are strided, each access using this many bytes of the memory's sector (a
  // transposing copy reads one element per sector per warp access); 0: contiguous reads.
  double strided_read_bytes = 0;
  // Bytes of one element of the input (0: not stated, read as fp32). Reductions count the values
  // each thread sums in elements.
  double element_bytes = 0;
  // The framework runs it on its unvectorised elementwise kernel: PyTorch's vectorised one needs
  // every operand contiguous and of one dtype, so an operand broadcast along a dimension
  // (x − max[:, None], q · cos over the heads), a strided view (a slice of a fused projection's
  // output) or a cast between dtypes takes the slower path (element_bytes must then be set).
  bool unvectorized = false;
};

// Work whose time a trace recorded (a Chakra COMP_NODE's duration on the machine that made the
// trace): it takes exactly `seconds` on its stage's device, replayed, not simulated — no device
// model sees it, and its energy is the device's idle power (nothing is known of what it did).
struct RecordedOp {
  double seconds = 0;
};

// Scaled-dot-product attention over a KV cache: `batch` sequences, `heads` query heads sharing
// `kv_heads` KV heads (GQA), `q_len` new queries attending to `kv_len` keys (the queries are the
// last q_len positions). causal: query i sees keys up to its own position; window > 0: only the
// last `window` keys (sliding window).
struct AttentionOp {
  std::int64_t batch = 1, heads = 1, kv_heads = 1, head_dim = 128;
  std::int64_t q_len = 1, kv_len = 1;
  bool causal = true;
  std::int64_t window = 0;
  DType dtype = DType::bf16;     // Q, O and the math
  DType kv_dtype = DType::bf16;  // K and V as stored in the cache
  AttentionImpl impl = AttentionImpl::automatic;  // the kernel(s) the software stack runs
};

// Number of (query, key) pairs that attention evaluates per (sequence, head), honouring the
// causal mask and the sliding window.
double attention_pairs(const AttentionOp& a);

// One framework-level piece of a composite op: the model code's own small operations (the torch
// ops of rotate_half RoPE, silu then mul, the K and V cache copies). A framework that launches one
// kernel per such operation (PyTorch eager: workloads/passes/) replaces the composite by its parts.
// inputs: >= 0 an earlier part; < 0 the composite op's graph input -(i+1) (its i-th in-edge).
struct OpPart {
  std::string name;
  StreamOp shape;
  std::vector<int> inputs;
};
constexpr int composite_input(int i) { return -(i + 1); }

// Elementwise work a fusing compiler (XLA: workloads/passes/) folded into this op, so it runs in
// the op's epilogue or in the same vector pass instead of as ops of its own: their names, their
// vector FLOPs, and the bytes they read or write beyond what the host op already moves (e.g. the
// residual a fused add reads). extra_bytes_written is negative when the fused epilogue writes less
// than the host's own output (SiLU·mul after gate_up writes half of it). op_flops/op_min_bytes
// include them.
struct FusedWork {
  std::vector<std::string> ops;
  double vector_flops = 0;
  double extra_bytes_read = 0;
  double extra_bytes_written = 0;
  bool empty() const { return ops.empty(); }
};

struct Op {
  using Shape = std::variant<GemmOp, StreamOp, AttentionOp, CollectiveOp, ConvOp, RecordedOp>;
  Op() = default;
  Op(std::string op_name, std::string klass, Shape op_shape, std::string input = {}, std::string output = {})
      : name(std::move(op_name)), op_class(std::move(klass)), shape(std::move(op_shape)),
        input_tensor(std::move(input)), output_tensor(std::move(output)) {}

  std::string name;    // "layer3.qkv_proj"
  std::string op_class; // "gemm", "attention", "norm", "elementwise", ...
  Shape shape;  // a CollectiveOp runs on the system's links, never on one device
  // The pipeline stage whose devices run the op (0 without pipeline parallelism). A send_recv on
  // the pp axis runs from this stage to the next.
  int stage = 0;
  // Tensors, for data reuse between kernels (L2). Empty: the input is the output of the op's
  // first graph predecessor and the output is the op's own. Ops naming the same tensor touch the
  // same bytes (e.g. repeated calls of a measurement on one buffer set).
  std::string input_tensor, output_tensor;
  // Composite ops only: the parts an eager framework launches (empty: the op is one kernel as is).
  std::vector<OpPart> parts;
  // Set by a fusion pass: elementwise work absorbed into this op.
  FusedWork fused;
};

// FLOPs and the fewest bytes the op must move through device memory (each input once, each
// output once): the roofline's two numerators. A collective has neither (its bytes cross links).
// Both include the op's fused work.
double op_flops(const Op& op);
double op_min_bytes(const Op& op);
// The same for the op's own shape alone (without fused work).
double shape_flops(const Op& op);
double shape_min_bytes(const Op& op);
bool is_collective(const Op& op);
bool is_recorded(const Op& op);  // a RecordedOp

}  // namespace hwsim
