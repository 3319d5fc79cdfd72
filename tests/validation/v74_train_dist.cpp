// Accuracy gate for data-parallel training steps on 2 and 4 H200 (docs/systems.md, "Training on
// several GPUs"): eager PyTorch DDP and FSDP2 (scripts/measure/measure_train_dist.py), run as
// `train:...,dp=N` on h200x2 / h200x4 (workloads/llm/measurement_kinds_train_dist.cpp).
//
// Fit and held out, decided before any error was looked at (and written in docs/systems.md):
//   fit (may shape the model; nothing was fitted as a constant: every mechanism is what the
//   wrappers and NCCL do, the one new parameter, collective.compute_share, is 24 channels / 132
//   SMs): every 2-GPU record but fsdp2_gpt2m_b8, and the 4-GPU ddp_gpt2_b8, ddp_gpt2m_b8,
//   fsdp2_llama8b4l_b1, fsdp2_llama8b4l_b2 (10 records);
//   held out (judged separately, never used to shape anything): the 4-GPU recomputed records
//   (fsdp2_llama8b4l_b2_ckpt, ddp_gpt2m_b8_ckpt) and fsdp2_gpt2m_b8 on 2 and 4 GPUs (4 records).
// The goal is every record within 12 %. Today the fit records' MAPE is 9.6 % and seven of ten are
// within 12 %; the three that are not are host-bound in eager PyTorch (kernel_busy_fraction
// 0.82-0.91 against 0.97 on one GPU), which the model has no term for: GPT-2 124M under DDP
// (-13.1 % and -12.2 %), FSDP2 Llama batch 1 on 2 GPUs (-13.7 %, also the collective model's
// all_gather / reduce_scatter on 2 GPUs, ~25 % fast: docs/systems.md) and GPT-2 medium with
// recomputation under DDP (-21.2 %). Held out: FSDP2 Llama with recomputation -2.0 %; GPT-2 medium
// with recomputation under DDP -27.3 % and FSDP2 on GPT-2 medium -53 % / -49 % (the GPU idle half
// the step: FSDP2's host work per block). The gate holds today's figures so that they cannot
// worsen, and names the known misses.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "tests/fixtures/validate_gate.h"

using namespace hwsim::test;

namespace {

// The configs in the order measure_train_dist.py writes them (one record each per file).
const std::vector<std::string> kConfigs = {"ddp_gpt2_b8",        "fsdp2_llama8b4l_b1",      "ddp_gpt2m_b8",
                                           "fsdp2_llama8b4l_b2", "fsdp2_llama8b4l_b2_ckpt", "ddp_gpt2m_b8_ckpt",
                                           "fsdp2_gpt2m_b8"};

// Each record's error (percent) by config, from validate's CSV (kind, measured_s, predicted_s,
// error_pct, …: the first four columns hold no quoted commas).
std::map<std::string, double> errors_by_config(const std::string& file, const std::string& system, double max_mape) {
  const auto csv = scratch_dir() / ("train_dist_" + system + ".csv");
  check_gate("data/measurements/" + file,
             "--system " + system + " --kind train_step_dist --csv '" + csv.string() + "'", max_mape);
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);  // header
  std::map<std::string, double> errors;
  for (std::size_t row = 0; std::getline(in, line); ++row) {
    REQUIRE(row < kConfigs.size());
    CHECK_MESSAGE(line.find(kConfigs[row]) != std::string::npos, "row " << row << " is not " << kConfigs[row]);
    std::stringstream cells(line);
    std::string cell;
    for (int column = 0; column < 4; ++column) std::getline(cells, cell, ',');
    errors[kConfigs[row]] = std::stod(cell);
  }
  CHECK(errors.size() == kConfigs.size());
  return errors;
}

double mape(const std::vector<double>& errors) {
  double sum = 0;
  for (double e : errors) sum += std::fabs(e);
  return errors.empty() ? 0 : sum / double(errors.size());
}

// The bound a record is held to: 12 % (the goal), or today's figure for a named known miss.
double bound(const std::map<std::string, double>& known_misses, const std::string& config) {
  auto it = known_misses.find(config);
  return it == known_misses.end() ? 12 : it->second;
}

}  // namespace

TEST_CASE("validation: DDP and FSDP2 training steps on 2 and 4 H200, fit and held-out records judged apart") {
  // validate's own bound is per strategy, fit and held out together, at today's figures: 2 GPUs
  // DDP 12.9 %, FSDP2 19.5 %; 4 GPUs DDP 14.5 %, FSDP2 16.7 %.
  const auto x2 = errors_by_config("h200x2_train_dist.jsonl", "h200x2", 21);
  const auto x4 = errors_by_config("h200x4_train_dist.jsonl", "h200x4", 18);

  std::vector<double> fit, held;
  const std::map<std::string, double> x2_misses = {
      {"ddp_gpt2_b8", 14}, {"fsdp2_llama8b4l_b1", 15}, {"ddp_gpt2m_b8_ckpt", 23}, {"fsdp2_gpt2m_b8", 56}};
  const std::map<std::string, double> x4_misses = {{"ddp_gpt2_b8", 14}, {"ddp_gpt2m_b8_ckpt", 30}, {"fsdp2_gpt2m_b8", 52}};
  for (const auto& [config, e] : x2) {
    CHECK_MESSAGE(std::fabs(e) <= bound(x2_misses, config), "2 GPUs " << config << ": " << e << " %");
    (config == "fsdp2_gpt2m_b8" ? held : fit).push_back(e);
  }
  for (const auto& [config, e] : x4) {
    CHECK_MESSAGE(std::fabs(e) <= bound(x4_misses, config), "4 GPUs " << config << ": " << e << " %");
    const bool held_out = config == "fsdp2_llama8b4l_b2_ckpt" || config == "ddp_gpt2m_b8_ckpt" || config == "fsdp2_gpt2m_b8";
    (held_out ? held : fit).push_back(e);
  }
  CHECK(fit.size() == 10);
  CHECK(held.size() == 4);
  CHECK(mape(fit) <= 10.5);   // 9.6 % today
  CHECK(mape(held) <= 35);    // 32.8 % today
  // Held-out FSDP2 Llama with recomputation: the one held-out record the model's mechanisms cover.
  CHECK(std::fabs(x4.at("fsdp2_llama8b4l_b2_ckpt")) <= 12);
}
