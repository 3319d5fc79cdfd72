#pragma once
// Golden outputs: a fixed set of runs whose key results are stored in tests/golden/CASE.json and
// compared bit for bit by tests/integration/i090_golden_outputs.cpp. `golden_write` (built from
// tests/golden/golden_write.cpp) writes the files; a golden file changes only in a commit that
// says why (tests/golden/README.md).
//
// What is kept of a run: every number, boolean and string under the JSON document's "result"
// (but the host's own time, `host_seconds`),
// flattened to paths ("result.llm.ttft"); an array of more than kGoldenWholeArray elements keeps
// its first three, middle and last three elements whole, its length ("[count]") and, for every
// numeric path inside its elements, the sum over all elements in order ("[sum]"), so a change in
// any one record shows. Numbers are written with %.17g (they read back as the same double).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <variant>
#include <vector>

namespace hwsim::golden {

struct GoldenCase {
  std::string name;               // tests/golden/<name>.json
  std::vector<std::string> runs;  // hwsim arguments of each run (run from the repository root)
};

// The fixed set. Small sizes: every case runs in seconds. Add a case with its golden file in one
// commit; never edit a run's arguments without regenerating (and saying why).
inline const std::vector<GoldenCase>& golden_cases() {
  static const std::vector<GoldenCase> cases = {
      {"decode_llama8b", {"--chip h100 -w decode_llama8b"}},
      {"decode_batch32_fp8kv", {"--chip h100 -w decode:model=llama3_8b,batch=32,context=2048,kv=fp8"}},
      {"prefill_llama8b", {"--chip h100 -w prefill_llama8b"}},
      {"prefill_gpt3_2layers", {"--chip h100 -w prefill:model=gpt3_175b,batch=1,prompt=2048,layers=2"}},
      {"generate_short", {"--chip h100 -w generate:model=llama3_8b,batch=1,prompt=128,output=16 --detail full"}},
      {"generate_fused_h200", {"--chip h200 -w generate:model=mistral_7b,batch=4,prompt=64,output=8,kernels=fused --detail full"}},
      {"gemm_sweep",
       {"--chip h100 -w gemm:M=4096,N=4096,K=4096,dtype=bf16", "--chip h100 -w gemm:M=1,N=4096,K=4096,dtype=bf16",
        "--chip h100 -w gemm:M=128,N=128,K=16384,dtype=bf16", "--chip h100 -w gemm:M=3000,N=5008,K=704,dtype=fp8",
        "--chip a100 -w gemm:M=2048,N=2048,K=2048,dtype=fp16", "--chip mi300x -w gemm:M=4096,N=4096,K=4096,dtype=bf16"}},
      {"elementwise",
       {"--chip h100 -w elementwise:op=rmsnorm,T=4096,D=4096,repeat=3",
        "--chip h100 -w elementwise:op=add,T=1,D=67108864,dtype=bf16,repeat=2"}},
      {"attention",
       {"--chip h100 -w attention:batch=8,heads=32,kv_heads=8,head_dim=128,q_len=1,kv_len=4096",
        "--chip h100 -w attention:batch=1,heads=32,kv_heads=8,head_dim=128,q_len=2048,kv_len=2048"}},
      {"mi300x_decode", {"--chip mi300x -w decode_llama8b"}},
      {"tpu", {"--chip tpu_v5e -w decode_llama8b", "--chip tpu_v5p -w gemm:M=2048,N=2048,K=2048"}},
      {"mcu", {"--chip cortex_m55_u55 -w kws_dscnn", "--chip cortex_m7_stm32h7 -w vww_mobilenet"}},
      {"system",
       {"--system h200x2 -w decode:model=llama3_8b,batch=1,context=512,tp=2",
        "--system h200x2 -w collective:op=all_reduce,bytes=1KiB..64MiB,factor=8,ranks=2 --detail full",
        "--system dgx_h100 -w decode:model=llama3_8b,batch=8,context=256,pp=2,tp=2,microbatches=2"}},
      {"serve", {"--chip h100 -w serve:model=llama3_8b,requests=24,rate=inf,prompt=128,output=24,max_batch=8 --detail full",
                 "--chip h100 -w serve:model=llama3_8b,requests=16,rate=40,prompt=uniform:32..256,output=16,seed=3,"
                 "max_tokens_per_step=256 --detail full"}},
      {"warp_kernels",
       {"--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/vector_add.hwk --grid 4 --block 256",
        "--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/matmul_tiled.hwk --grid 16 --block 256 --arg n=64",
        "--chip h100 --set gpu.core.model=warp --kernel workloads/kernels/bank_conflict.hwk --grid 8 --block 512 "
        "--arg stride=32 --arg iters=64"}},
  };
  return cases;
}

inline constexpr std::size_t kGoldenWholeArray = 12;

// A kept figure: a number (every JSON number and boolean) or a string.
using GoldenValue = std::variant<double, std::string>;
using GoldenFigures = std::map<std::string, GoldenValue>;

namespace detail {
inline void sum_into(GoldenFigures& sums, const GoldenFigures& element, const std::string& prefix) {
  for (const auto& [path, value] : element) {
    if (!std::holds_alternative<double>(value)) continue;
    auto [it, fresh] = sums.try_emplace(prefix + path, 0.0);
    std::get<double>(it->second) += std::get<double>(value);
  }
}
}  // namespace detail

// Keys whose values are not results of the simulation (the host's own time): never kept.
inline bool not_a_result(const std::string& key) { return key == "host_seconds"; }

inline void flatten(const nlohmann::json& j, const std::string& path, GoldenFigures& out) {
  if (j.is_number()) {
    out[path] = j.is_number_float() ? j.get<double>() : double(j.get<std::int64_t>());
  } else if (j.is_boolean()) {
    out[path] = j.get<bool>() ? 1.0 : 0.0;
  } else if (j.is_string()) {
    out[path] = j.get<std::string>();
  } else if (j.is_object()) {
    for (const auto& [key, value] : j.items())
      if (!not_a_result(key)) flatten(value, path + "." + key, out);
  } else if (j.is_array()) {
    std::size_t n = j.size();
    if (n <= kGoldenWholeArray) {
      for (std::size_t i = 0; i < n; ++i) flatten(j[i], path + "[" + std::to_string(i) + "]", out);
      return;
    }
    out[path + "[count]"] = double(n);
    for (std::size_t i : {std::size_t(0), std::size_t(1), std::size_t(2), n / 2, n - 3, n - 2, n - 1})
      flatten(j[i], path + "[" + std::to_string(i) + "]", out);
    GoldenFigures sums;
    for (std::size_t i = 0; i < n; ++i) {
      GoldenFigures element;
      flatten(j[i], "", element);
      detail::sum_into(sums, element, path + "[sum]");
    }
    for (auto& [p, v] : sums) out[p] = v;
  }
}

// The figures of one run's document, each path prefixed by the run's index ("r0:result.seconds").
inline void add_run_figures(const nlohmann::json& document, std::size_t run, GoldenFigures& out) {
  flatten(document.at("result"), "r" + std::to_string(run) + ":result", out);
}

// Runs `hwsim ARGS --quiet --json FILE` from the repository root; returns the parsed document, or
// throws std::runtime_error with hwsim's stderr.
inline nlohmann::json run_for_golden(const std::string& binary, const std::string& source_dir, const std::string& args) {
  static int runs = 0;
  auto dir = std::filesystem::temp_directory_path() / ("hwsim-golden-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto json = dir / ("run" + std::to_string(++runs) + ".json");
  auto err = dir / ("run" + std::to_string(runs) + ".err");
  std::string command = "cd '" + source_dir + "' && '" + binary + "' " + args + " --quiet --json '" + json.string() +
                        "' 2>'" + err.string() + "'";
  int status = std::system(command.c_str());
  std::ifstream in(json), in_err(err);
  std::stringstream text, err_text;
  text << in.rdbuf();
  err_text << in_err.rdbuf();
  std::filesystem::remove(json);
  std::filesystem::remove(err);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error("hwsim " + args + " failed: " + err_text.str());
  return nlohmann::json::parse(text.str());
}

inline GoldenFigures case_figures(const GoldenCase& c, const std::string& binary, const std::string& source_dir) {
  GoldenFigures out;
  for (std::size_t i = 0; i < c.runs.size(); ++i) add_run_figures(run_for_golden(binary, source_dir, c.runs[i]), i, out);
  return out;
}

inline std::string golden_path(const std::string& source_dir, const std::string& name) {
  return source_dir + "/tests/golden/" + name + ".json";
}

// A figure as it is written: %.17g for a finite number (two doubles print alike exactly when they
// are the same double), a JSON string otherwise ("inf", "-inf", "nan" for those numbers).
inline std::string render(const GoldenValue& value) {
  if (const double* d = std::get_if<double>(&value)) {
    if (!std::isfinite(*d)) return nlohmann::json(std::isnan(*d) ? "nan" : *d > 0 ? "inf" : "-inf").dump();
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", *d);
    return buffer;
  }
  return nlohmann::json(std::get<std::string>(value)).dump();
}

// {"case": NAME, "figures": {PATH: VALUE, ...}}, one figure a line.
inline std::string golden_text(const std::string& name, const GoldenFigures& figures) {
  std::string out = "{\n  \"case\": " + nlohmann::json(name).dump() + ",\n  \"figures\": {\n";
  std::size_t i = 0;
  for (const auto& [path, value] : figures)
    out += "    " + nlohmann::json(path).dump() + ": " + render(value) + (++i < figures.size() ? ",\n" : "\n");
  return out + "  }\n}\n";
}

// Reads a golden file back as rendered figures (a number parses to the very double written, so it
// renders to the same text).
inline std::map<std::string, std::string> read_golden(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": no golden file (build and run golden_write)");
  nlohmann::json doc = nlohmann::json::parse(in);
  std::map<std::string, std::string> out;
  for (const auto& [key, value] : doc.at("figures").items()) {
    if (value.is_number()) out[key] = render(value.is_number_float() ? value.get<double>() : double(value.get<std::int64_t>()));
    else out[key] = render(value.get<std::string>());
  }
  return out;
}

}  // namespace hwsim::golden
