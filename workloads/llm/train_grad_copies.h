#pragma once
// The copies a data-parallel wrapper launches around its collectives, on the compute stream (what
// PyTorch runs; the profiler's kernels in data/measurements/h200x{2,4}_train_dist.jsonl show them:
// docs/systems.md, "Training on several GPUs"). Each is one StreamOp over the bytes it moves.
//   DDP (zero 0/1, buckets all-reduced): the reducer copies each gradient into its flat bucket
//     (read and write the gradient's bytes) and divides the bucket by the world size before the
//     all-reduce (read and write again): `bucket_copy_in` with divides = true; after the last
//     all-reduce, finalize_backward copies the buckets back into every .grad (gradient_as_bucket_view
//     off, its default): `grad_copy_out`.
//   FSDP2 (zero=3, zero_impl=fsdp2): before each unit's reduce-scatter, chunk_cat copies the
//     16-bit gradients into one reduce-dtype buffer (read w, write r per element; the average is
//     NCCL's, in the kernel): `bucket_copy_in` with divides = false. Before each all-gather, the
//     fp32 shard cast to 16 bits and that copy copied into the gather's flat input (foreach_copy_;
//     `gather_copy_in`: 1/dp of the unit, one pass when the master has the gather's dtype); after it,
//     split_with_sizes_copy out of the gathered buffer into every parameter (`gather_copy_out`).
#include <string>

#include "ops/op.h"

namespace hwsim {

// elements: the gradients the bucket holds; grad_bytes, reduce_bytes: bytes per element of the
// gradient and of the reduction.
Op bucket_copy_in(const std::string& name, double elements, double grad_bytes, double reduce_bytes, bool divides);
// bytes: every gradient's bytes (all buckets).
Op grad_copy_out(const std::string& name, double bytes);
// elements: the unit's parameters; master_bytes: the sharded master weight's (fp32: 4);
// gather_bytes: the gathered weight's; dp: the shards.
Op gather_copy_in(const std::string& name, double elements, double master_bytes, double gather_bytes, double dp);
Op gather_copy_out(const std::string& name, double elements, double gather_bytes);

}  // namespace hwsim
