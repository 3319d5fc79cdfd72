#pragma once
// The words a GPU's users know its parts by. NVIDIA: SMs run CTAs (thread blocks) of 32-wide warps
// with shared memory; AMD: compute units (CUs) run workgroups of 64-wide wavefronts with LDS, the
// CUs grouped in XCDs. The tile model is written in NVIDIA's words (gpu.sm.* keys, "CTA" in
// lowering descriptions); a chip's `gpu.vocabulary` chooses what its reports say. Chosen once
// from the config (GpuChip::from_config), read by the device when it names its records.
#include <string>

namespace hwsim {

class Config;

struct GpuVocabulary {
  std::string vendor = "nvidia";        // gpu.vocabulary
  std::string compute_units = "SMs";    // what the breakdown averages over
  std::string compute_unit = "SM";
  std::string group = "CTA";            // a thread block / workgroup
  std::string groups = "CTAs";
  std::string thread_group = "warp";    // 32 / 64 lanes executing together
  std::string partition = "partition";  // a die with its own L2 (AMD: XCD)
  // Record detail names, in TileMachine's schema order: ctas, ctas_per_sm, sms_used, waves.
  std::string detail_groups = "ctas", detail_groups_per_unit = "ctas_per_sm", detail_units_used = "sms_used",
              detail_waves = "waves";

  bool is_nvidia() const { return vendor == "nvidia"; }
  // A lowering description in these words ("stream 304 CTAs x 256 threads (8 CTA/SM)" →
  // "stream 304 workgroups x 256 threads (8 WG/CU)"); unchanged for NVIDIA.
  std::string reword(const std::string& text) const;

  static GpuVocabulary from_config(const Config& config);
};

}  // namespace hwsim
