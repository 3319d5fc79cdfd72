#pragma once
// How the language-model frontend names its ops, built and read in this one place: a layer's op is
// "L<layer>.<op>" ("L3.qkv_proj"; its eager parts add ".<part>": "L3.rope.q.neg"), a microbatch's
// ops are prefixed "mb<k>." and a training step's backward and recomputed ops "bwd." and
// "recompute." ("mb1.bwd.L3.qkv_proj.dw"). What is the same operation in every layer (the metrics'
// time by operation summed over layers) is the name without those numbers.
#include <cstdint>
#include <string>
#include <string_view>

namespace hwsim {

// "L<layer>", "L<layer>.<op>" and the layer's prefix "L<layer>.".
std::string layer_name(std::int64_t layer);
std::string layer_op_name(std::int64_t layer, std::string_view op);
std::string layer_prefix(std::int64_t layer);
// "mb<k>." when a step holds several microbatches, else "".
std::string microbatch_prefix(std::int64_t microbatch, std::int64_t microbatches);

// The operation a record or op named `name` belongs to: "L3.qkv_proj" → "qkv_proj",
// "mb1.L3.qkv_proj" → "qkv_proj", "bwd.L3.qkv_proj.dw" → "bwd.qkv_proj.dw"; a name outside the
// grammar is its own operation.
std::string operation_of(const std::string& name);

}  // namespace hwsim
