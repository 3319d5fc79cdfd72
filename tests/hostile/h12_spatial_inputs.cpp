// The spatial kind under hostile input: DRAM named without a size, an active power beyond the chip's limit,
// another kind's key, and a bad chip file (a missing key, a zero or negative count, a wrong type, an unknown
// key) are one line naming the file, line and key (exit 3); a model the deployment cannot hold is one line with
// the chips it would need, or the per-chip memory to raise where no count within the bound would (exit 4); a
// deployment of 65,536 wafers is bounded (the chip count's own bound).
#include "tests/hostile/hostile.h"

using namespace hwsim::hostile;

TEST_CASE("hostile spatial: DRAM named without a size is one line with both ways out") {
  refused("--chip tt_wormhole_n150 --set spatial.dram.size=0B -w decode_llama8b -q", 3,
          "give spatial.dram.size and spatial.dram.bandwidth with a DRAM kind, or kind \"none\" with neither");
}

TEST_CASE("hostile spatial: an active power beyond the limit is one line with the sum") {
  refused("--chip cerebras_wse3 --set spatial.power.active=30kW -w decode_llama8b -q", 3, "exceeds power.tdp");
}

TEST_CASE("hostile spatial: a CPU's key in a spatial chip is refused naming the kind") {
  refused("--chip groq_lpu --set cpu.cores=4 -w decode_llama8b -q", 3, "cpu.cores");
}

TEST_CASE("hostile spatial: Llama-3-70B on one fixed Groq chip is one line with the chips it needs") {
  refused("--chip groq_lpu --set spatial.fit_chips=false -w decode_llama70b -q", 4, "--set spatial.chips=");
}

TEST_CASE("hostile spatial: more chips than the bound is one line with the bound") {
  refused("--chip groq_lpu --set spatial.chips=100000 -w decode_llama8b -q", 3, "spatial.chips");
}

// Bad chip files of the spatial kind: each names the file, the line (where the key is written), the key,
// what is wrong and what would be right, exits 3, and leaves no output behind (--json is asked for).
namespace {

// A chip file in the case folder extending the shipped Groq LPU, with `body` after the extends line.
std::string groq_variant(const fs::path& dir, const std::string& body) {
  return write_input(dir, "chip.toml", "extends = \"groq_lpu\"\n" + body);
}

void bad_groq_file(const std::string& body, const std::string& says) {
  auto dir = case_dir();
  groq_variant(dir, body);
  refused(dir, "--chip {dir}/chip.toml -w decode:model=llama3_1_8b,weights=int8,context=512 --json {dir}/out.json -q", 3, says);
}

}  // namespace

TEST_CASE("hostile spatial file: a missing required key names the file, the key and what it takes") {
  auto dir = case_dir();
  std::string text = hwsim::test::read_text(fs::path(HWSIM_SOURCE_DIR) / "configs" / "groq_lpu.toml");
  std::string kept;
  for (const auto& line : hwsim::test::lines_of(text))
    if (line.rfind("clock = ", 0) != 0) kept += line + "\n";
  REQUIRE(kept.size() < text.size());  // the clock line was there to take out
  write_input(dir, "chip.toml", kept);
  refused(dir, "--chip {dir}/chip.toml -w decode_llama8b --json {dir}/out.json -q", 3,
          "chip.toml: spatial.clock: missing required key of a spatial chip (frequency: core clock)");
}

TEST_CASE("hostile spatial file: a grid of zero rows names file, line and the range") {
  bad_groq_file("[spatial.grid]\nrows = 0\n",
                "chip.toml:3: spatial.grid.rows: 0 is out of range (a whole number between 1 and 4096)");
}

TEST_CASE("hostile spatial file: a negative core count names file, line and the range") {
  bad_groq_file("[spatial.grid]\ncols = -4\n",
                "chip.toml:3: spatial.grid.cols: -4 is out of range (a whole number between 1 and 4096)");
}

TEST_CASE("hostile spatial file: zero chips names file, line and the range") {
  bad_groq_file("[spatial]\nchips = 0\n", "chip.toml:3: spatial.chips: 0 is out of range (a whole number between 1 and 65536)");
}

TEST_CASE("hostile spatial file: a core count as text is the wrong type") {
  bad_groq_file("[spatial.grid]\ncols = \"twenty\"\n", "chip.toml:3: spatial.grid.cols: expected a whole number >= 1");
}

TEST_CASE("hostile spatial file: an SRAM size without its unit is the wrong type, with an example") {
  bad_groq_file("[spatial.core]\nsram = 11.5\n",
                "chip.toml:3: spatial.core.sram: expected a size with its unit as a string (e.g. \"50 MiB\"");
}

TEST_CASE("hostile spatial file: a misspelt key is unknown, with the key meant") {
  bad_groq_file("[spatial.core]\nsrma = \"1 MB\"\n",
                "chip.toml:3: spatial.core.srma: unknown key in [spatial.core] of a spatial chip (did you mean "
                "spatial.core.sram?)");
}

TEST_CASE("hostile spatial file: no SRAM at all is refused at the key") {
  bad_groq_file("[spatial.core]\nsram = \"0 B\"\n", "chip.toml:3: spatial.core.sram: must be greater than zero");
}

// SRAM smaller than anything fits: no count of chips within spatial.chips' bound holds the model, so the
// refusal (exit 4) names the per-chip memory to raise, not a --set the bound would refuse.
TEST_CASE("hostile spatial file: an SRAM no deployment can hold a model in names the key to raise") {
  auto dir = case_dir();
  groq_variant(dir, "[spatial.core]\nsram = \"1 B\"\n");
  refused(dir, "--chip {dir}/chip.toml -w decode:model=llama3_1_8b,weights=int8,context=512 --json {dir}/out.json -q", 4,
          "more than spatial.chips allows (65536): give each chip more SRAM (spatial.core.sram)");
  refused(dir, "--chip {dir}/chip.toml -w gemm:M=64,N=4096,K=4096 --json {dir}/out.json -q", 4,
          "give each chip more SRAM (spatial.core.sram)");
}

TEST_CASE("hostile spatial: a GEMM whose tensors outgrow one chip's SRAM is told the chips that hold it") {
  refused("--chip groq_lpu --set spatial.fit_chips=false -w gemm:M=16384,N=16384,K=16384 -q", 4, "chips of 230 MB SRAM hold it (1 given): --set spatial.chips=");
}
