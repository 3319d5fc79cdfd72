#include "models/gpu/library_habits_attention.h"

#include <algorithm>
#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/did_you_mean.h"
#include "sim/error.h"

namespace hwsim {
namespace {

const ParamRegistration attention_habit_params({"gpu"}, {
    text_param("gpu.attention.priority",
               "attention implementations in the order PyTorch's scaled_dot_product_attention tries them on this "
               "GPU (the first available one that supports the dtype and shape runs), comma-separated: naive, "
               "mem_efficient, flash2, flash3, cudnn")
        .defaults_to("flash2,mem_efficient,naive,cudnn"),
    text_param("gpu.attention.available",
               "attention implementations built for this GPU (flash3 needs Hopper), comma-separated")
        .defaults_to("naive,mem_efficient,flash2,cudnn"),
    fraction_param("gpu.attention.flash2_efficiency",
                   "FlashAttention-2: sustained fraction of the mma.sync tensor rate in its main loop "
                   "(softmax and rescaling between the matmuls)")
        .defaults_to("0.7"),
    fraction_param("gpu.attention.flash3_efficiency",
                   "FlashAttention-3: sustained fraction of the tensor-core peak in its main loop")
        .defaults_to("0.75"),
    fraction_param("gpu.attention.mem_efficient_efficiency",
                   "memory-efficient attention (CUTLASS FMHA) on fp16/bf16: sustained fraction of the mma.sync tensor "
                   "rate in its main loop")
        .defaults_to("0.5"),
    fraction_param("gpu.attention.mem_efficient_fp32_efficiency",
                   "memory-efficient attention on fp32 (CUTLASS FMHA's 3xTF32 instantiation): sustained fraction of "
                   "its rate, a third of the mma.sync TF32 rate")
        .defaults_to("0.5"),
});

std::vector<AttentionImpl> parse_impls(const Config& c, const std::string& key) {
  std::vector<AttentionImpl> out;
  std::string text = c.text(key);
  std::string where = c.value(key).origin + ": " + key;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    auto impl = parse_attention_impl(item);
    if (!impl || *impl == AttentionImpl::automatic)
      config_error(fmt::format("{}: '{}' is not an attention implementation; valid: {}{}", where, item,
                               join(attention_impl_names()), did_you_mean(item, attention_impl_names())));
    out.push_back(*impl);
    start = comma + 1;
  }
  return out;
}

}  // namespace

bool AttentionHabits::offers(AttentionImpl impl) const {
  return std::find(available.begin(), available.end(), impl) != available.end();
}

AttentionHabits AttentionHabits::from_config(const Config& c) {
  AttentionHabits h;
  h.priority = parse_impls(c, "gpu.attention.priority");
  h.available = parse_impls(c, "gpu.attention.available");
  h.flash2_efficiency = c.number("gpu.attention.flash2_efficiency");
  h.flash3_efficiency = c.number("gpu.attention.flash3_efficiency");
  h.mem_efficient_efficiency = c.number("gpu.attention.mem_efficient_efficiency");
  h.mem_efficient_fp32_efficiency = c.number("gpu.attention.mem_efficient_fp32_efficiency");
  return h;
}

}  // namespace hwsim
