#pragma once
// The "xla" frontend pass: a step's op graph rewritten the way XLA fuses it (on a TPU), from the
// graph alone — no hardware, no cost model, deterministic.
//
// Fusion rules, applied to the ops in execution order (each op is visited once, after all of its
// producers; an op either starts a fusion of its own or joins the fusion of one producer):
//   absorbable  an op of op_class "elementwise" with a StreamOp shape that is not a KV-cache write
//               (a name component "kv_append": a dynamic-update-slice that must write the cache).
//               A composite op (Op::parts) counts as one op.
//   host        a fusion whose first op is a GEMM (GemmOp shape: epilogue fusion), a norm
//               (op_class "norm", StreamOp) or an absorbable op (loop fusion). Attention ops and
//               cache writes host nothing; a GEMM or attention op never joins another fusion.
//   joining     an absorbable op V joins the fusion of its producer U when U is that fusion's
//               output and V is U's only consumer (distinct consumer ops). Among several such
//               producers, the first GEMM-hosted fusion in V's in-edge order wins (epilogue
//               fusion saves the GEMM's output round trip), else the first one. Fusions are
//               therefore chains and never cross a tensor with two consumers (it is materialised).
// Folding a fusion (host H, then absorbed ops B1..Bn, each StreamOp Bi reading Ri, writing Wi;
// W0 = H's output bytes: m·n·groups elements of the GEMM's `out` dtype, or the StreamOp's
// bytes_written):
//   extra reads  Σ max(0, Ri − W(i−1)): what Bi reads beyond its producer's output (the residual's
//                skip input, RoPE's cos/sin tables); the intermediate itself never goes to HBM.
//   GEMM host    fused.ops += names, fused.vector_flops += Σ flops, fused.extra_bytes_read +=
//                extra reads, fused.extra_bytes_written += Wn − W0: negative when the fusion
//                writes fewer bytes than the GEMM's output (SiLU·mul halves gate_up's), so the
//                fused op's min bytes count only the final tensor.
//   stream host  the StreamOp itself becomes the fused kernel: bytes_read += extra reads,
//                bytes_written = Wn, flops += Σ flops (rows: the host's); fused.ops lists the
//                absorbed names (fused.vector_flops stays as it was, so FLOPs are not counted twice).
//   Work an absorbed op had already absorbed (its own `fused`) moves to the host as is.
//   The fused op keeps the host's name, op_class, input tensor and parts (the host's own eager
//   decomposition; its composite_input(i) indices stay valid, the host's in-edges coming first);
//   absorbed ops' parts are dropped. Its output tensor is the last absorbed op's.
// Edges: a fused op's in-edges are the host's (in order, so the first stays the main input), then
// each absorbed op's inputs from outside the fusion not already present; every consumer of the
// fusion's output reads the fused op. A fusion takes the place of its last op in execution order,
// which keeps the order topological (every input of every member precedes it).
// Invariants (tests u600–u603): Σ op_flops unchanged; Σ op_min_bytes never grows; same input →
// identical output; the input graph is not modified.
#include "ops/op_graph.h"

namespace hwsim {

OpGraph xla_fuse(const OpGraph& graph);

}  // namespace hwsim
