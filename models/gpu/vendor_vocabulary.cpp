#include "models/gpu/vendor_vocabulary.h"

#include <utility>
#include <vector>

#include "sim/config/config.h"
#include "sim/config/param.h"

namespace hwsim {
namespace {

const ParamRegistration vocabulary_params({"gpu"}, {
    choice_param("gpu.vocabulary", {"nvidia", "amd"},
                 "words the reports use: nvidia (SMs, CTAs, warps, shared memory) or amd (CUs, workgroups, "
                 "64-wide wavefronts, LDS, XCDs); gpu.sm.* keys describe a compute unit either way")
        .defaults_to("nvidia"),
});

GpuVocabulary amd_words() {
  GpuVocabulary v;
  v.vendor = "amd";
  v.compute_units = "CUs";
  v.compute_unit = "CU";
  v.group = "workgroup";
  v.groups = "workgroups";
  v.thread_group = "wavefront";
  v.partition = "XCD";
  // "waves" would read as wavefronts on AMD: a grid's passes over the CUs are dispatch rounds.
  v.detail_groups = "workgroups";
  v.detail_groups_per_unit = "workgroups_per_cu";
  v.detail_units_used = "cus_used";
  v.detail_waves = "dispatch_rounds";
  return v;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

}  // namespace

std::string GpuVocabulary::reword(const std::string& text) const {
  if (is_nvidia()) return text;
  std::string s = text;
  // Longest phrases first, so "CTA/SM" is not half-replaced by "CTA".
  const std::vector<std::pair<std::string, std::string>> words = {
      {"CTA/SM", "WG/" + compute_unit}, {"CTAs", groups}, {"CTA", group}, {" SMs", " " + compute_units}};
  for (const auto& [from, to] : words) replace_all(s, from, to);
  return s;
}

GpuVocabulary GpuVocabulary::from_config(const Config& c) {
  return c.text("gpu.vocabulary") == "amd" ? amd_words() : GpuVocabulary{};
}

}  // namespace hwsim
