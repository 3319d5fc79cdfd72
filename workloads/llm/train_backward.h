#pragma once
// Backward ops derived from one forward op (the `train` workload walks the forward graph in
// reverse and calls this per op). Rules:
//
// - GEMM out[M,N] = x[M,K]·W[N,K]ᵀ (GemmOp{m=M,n=N,k=K}) gives two GEMMs of the same FLOPs:
//     "<name>.dx": dX[M,K] = dY[M,N]·W[N,K]      → GemmOp{m=M, n=K, k=N} (a = act, b = the weight dtype)
//     "<name>.dw": dW[N,K] = dY[M,N]ᵀ·x[M,K]     → GemmOp{m=N, n=K, k=M} (a = b = act, out = the weight dtype)
//   so the backward of a GEMM is 2× its forward FLOPs; grouped GEMMs (MoE experts) keep `groups`.
// - Attention: FlashAttention-2's backward (Dao 2023, "FlashAttention-2: Faster Attention with
//   Better Parallelism and Work Partitioning", §3.1.2 and §4.1: "the backward pass [has] 2.5x the
//   FLOPs of the forward") recomputes S = Q·Kᵀ and P from the saved log-sum-exp, then computes
//   dV = Pᵀ·dO, dP = dO·Vᵀ, dQ = dS·K, dK = dSᵀ·Q: 5 matmuls per visible (query, key) pair against
//   the forward's 2; it reads Q, K, V, O, dO and writes dQ, dK, dV. The op vocabulary has no
//   backward attention yet, so it is an AttentionOp of equal work: the same batch, lengths, mask
//   and window with 5× the heads and kv_heads at half the head_dim (FLOPs exactly 2.5× the
//   forward; bytes 2.5× the forward's Q, K, V, O, where the kernel moves 2× of them plus its fp32
//   dQ accumulator). An odd head_dim halves heads instead (when heads and kv_heads are even), else
//   the batch (when even); with none even it is 5 heads at full head_dim (5× FLOPs, said in the op's name).
// - Stream ops (norms, activations, residual adds, RoPE, the embedding's gradient scatter, the
//   MoE top-k): one op "<name>" with twice the forward's bytes read, bytes written and FLOPs
//   (the backward reads the saved input and the output gradient and writes the input gradient,
//   plus the γ/β gradients for norms). A composite's parts are not copied: the backward is one
//   kernel (autograd's per-part kernels are not modelled). A norm adds "<name>.grad_weight", its
//   γ/β gradient as PyTorch computes it: a second kernel summing over the rows (a reduction that
//   reads the output gradient and the saved input, writes the weights' gradient; grad_param).
// - Collectives of the (parallel) forward graph: Megatron's conjugate operators f and g (Shoeybi
//   et al. 2019, "Megatron-LM", §3, Figure 3): the forward all_reduce after a row-parallel GEMM (g)
//   is the identity in the backward, and the forward identity before a column-parallel GEMM (f)
//   is an all_reduce of its input gradient in the backward; so a tp all_reduce here has no
//   backward op (empty `ops`: the gradient passes through) and the step builder adds the
//   conjugate all_reduce after the column-parallel GEMMs' dX (train_step.h): one backward
//   all_reduce of the same bytes per forward one. A pipeline send_recv's backward is a send_recv
//   of the same bytes carrying the gradient back (train_step.h: its direction). all_gather ↔
//   reduce_scatter, all_to_all ↔ all_to_all.
// Every backward op keeps the forward op's op_class and stage; names get `prefix` ("bwd.").
#include <vector>

#include "ops/op.h"

namespace hwsim {

struct BackwardOps {
  std::vector<Op> ops;   // in issue order; empty: the gradient passes through unchanged
  int grad_input = -1;   // index of the op producing the gradient of the forward op's inputs
  int grad_param = -1;   // index of the op producing its parameter gradient (GEMM: dw; stream: the op)
};

// The backward of `forward`; `prefix` goes before the forward op's name ("bwd.").
BackwardOps backward_of(const Op& forward, const std::string& prefix);

// The equal-work AttentionOp for FlashAttention-2's backward (above).
AttentionOp attention_backward_shape(const AttentionOp& forward);

// The backward's factors, for tests and documentation.
constexpr double kAttentionBackwardFlopFactor = 2.5;
constexpr double kStreamBackwardFactor = 2.0;

}  // namespace hwsim
