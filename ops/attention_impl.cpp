#include "ops/attention_impl.h"

namespace hwsim {

std::string_view attention_impl_name(AttentionImpl impl) {
  switch (impl) {
    case AttentionImpl::automatic: return "auto";
    case AttentionImpl::naive: return "naive";
    case AttentionImpl::mem_efficient: return "mem_efficient";
    case AttentionImpl::flash2: return "flash2";
    case AttentionImpl::flash3: return "flash3";
    case AttentionImpl::cudnn: return "cudnn";
  }
  return "?";
}

std::optional<AttentionImpl> parse_attention_impl(std::string_view name) {
  if (name == "auto" || name == "default" || name == "sdpa") return AttentionImpl::automatic;
  if (name == "naive" || name == "math") return AttentionImpl::naive;
  if (name == "mem_efficient" || name == "efficient") return AttentionImpl::mem_efficient;
  if (name == "flash2" || name == "flash") return AttentionImpl::flash2;
  if (name == "flash3") return AttentionImpl::flash3;
  if (name == "cudnn") return AttentionImpl::cudnn;
  return std::nullopt;
}

std::vector<std::string> attention_impl_names() { return {"naive", "mem_efficient", "flash2", "flash3", "cudnn"}; }

}  // namespace hwsim
