// Benchmark: the language-model runs of the speed goals (README "Benchmark"), each as the command
// line runs it, in a fresh process: wall time, CPU time (start-up included) and peak RSS, the
// minimum over --repeat N runs. Prints figures; never fails on speed.
//   build/bench/bench_llm [--repeat N] [--chip CHIP]      (default chip: h100)
#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <unistd.h>
#include <vector>

#include "bench/bench_cli.h"

int main(int argc, char** argv) {
  using namespace hwsim::bench;
  int repeat = repeat_option(argc, argv);
  std::string chip = "h100";
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--chip") chip = argv[i + 1];
  std::string json = fmt::format("/tmp/hwsim-bench-llm-{}.json", ::getpid());
  struct Case {
    std::string label, args;
  };
  const std::string on = "--chip " + chip + " --quiet -w ";
  const std::vector<Case> cases = {
      {"decode_llama8b", on + "decode_llama8b"},
      {"decode_llama8b --json", on + "decode_llama8b --json " + json},
      {"decode batch 64, context 2048", on + "decode:model=llama3_8b,batch=64,context=2048"},
      {"decode_llama70b (h200: 141 GB of weights)", "--chip h200 --quiet -w decode_llama70b"},
      {"prefill_llama8b", on + "prefill_llama8b"},
      // 350 GB of weights fit no GPU: a what-if H100 with 512 GiB of HBM holds them (the figure is
      // the simulator's speed on a prefill of GPT-3's size).
      {"prefill gpt3_175b (96 x 12288), 2048 tokens", on + "prefill:model=gpt3_175b,batch=1,prompt=2048 "
                                                           "--set memory.hbm.size=512GiB"},
      {"generate 8B, prompt 128, output 512", on + "generate:model=llama3_8b,batch=1,prompt=128,output=512"},
      {"generate 8B, prompt 128, output 2048", on + "generate:model=llama3_8b,batch=1,prompt=128,output=2048"},
      {"generate ... output 2048 --json", on + "generate:model=llama3_8b,batch=1,prompt=128,output=2048 --json " + json},
  };
  fmt::print("chip {} (decode_llama70b: h200); minimum of {} run(s) each\n", chip, repeat);
  fmt::print("{:<46} {:>9} {:>9} {:>13}\n", "workload", "wall s", "CPU s", "peak RSS MiB");
  std::vector<CliTiming> timings;
  for (const Case& c : cases) {
    CliTiming t = time_cli(c.args, repeat);
    timings.push_back(t);
    fmt::print("{:<46} {:>9.3f} {:>9.3f} {:>13.1f}{}\n", c.label, t.wall_seconds, t.cpu_seconds, t.peak_rss_mib,
               t.ok ? "" : "  (failed)");
    std::fflush(stdout);
  }
  // The cost of a generated token should not grow with the output: CPU per token of the first 512
  // (with start-up and prefill) and of the 1536 after them.
  const CliTiming &g512 = timings[6], &g2048 = timings[7];
  fmt::print("CPU per generated token: {:.2f} ms over the first 512, {:.2f} ms over tokens 513-2048\n",
             1e3 * g512.cpu_seconds / 512, 1e3 * (g2048.cpu_seconds - g512.cpu_seconds) / 1536);
  std::remove(json.c_str());
  return 0;
}
