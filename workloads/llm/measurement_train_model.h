#pragma once
// The model part of a training record's `train:` spec, shared by the train_step and train_step_dist
// measurement kinds: the family's shipped architecture with the record's shape put in (layers,
// widths, heads, vocabulary), so a cut or resized model (a 4-layer Llama-3-8B, GPT-2 medium) is the
// model that ran.
#include <optional>
#include <string>

#include "sim/measurement/measurement.h"

namespace hwsim {

// "model=...,layers=...,hidden=...,heads=...,kv_heads=...,head_dim=...,ffn=...,vocab=..."; nullopt
// for a record without its shape or of a family no shipped model starts.
std::optional<std::string> train_model_fields(const Measurement& m);

}  // namespace hwsim
