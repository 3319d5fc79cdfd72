// The two llama.cpp regimes come out of the cpu kind's parameters, not out of a number: a decode
// step on all of Graviton3's cores is held by DRAM (MBU well above MFU), on two threads by the
// cores' arithmetic; a prefill is compute-bound and scales with the threads; AMX speeds up the
// Xeon's prefill and leaves its decode alone. Bad input is one line; a model DRAM cannot hold is
// refused with advice.
#include <doctest/doctest.h>

#include "models/cpu/cpu_chip.h"
#include "ops/device.h"
#include "sim/error.h"
#include "tests/fixtures/json_run.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
const char* kDecode = "decode:model=llama2_7b,weights=int4,kv=fp16,context=64";
const char* kPrefill = "prefill:model=llama2_7b,weights=int4,kv=fp16,prompt=256";
double seconds(const nlohmann::json& d) { return d.at("result").at("seconds"); }
// The one line loading the Xeon with `set` and building its typed chip throws (a config error).
std::string xeon_error(const std::string& set) {
  try {
    CpuChip::from_config(load_chip(chip_file("xeon_8480"), {set}));
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    return e.what();
  }
  FAIL("xeon_8480 with " << set << " was accepted");
  return {};
}
}  // namespace

TEST_CASE("cpu decode: DRAM-bound on every core, compute-bound on two threads") {
  auto all = run_hwsim_json(std::string("--chip graviton3 -w ") + kDecode, "g_all.json");
  auto two = run_hwsim_json(std::string("--chip graviton3 --set cpu.threads=2 -w ") + kDecode, "g_two.json");
  const auto& tb_all = all.at("result").at("time_breakdown");
  const auto& tb_two = two.at("result").at("time_breakdown");
  CHECK(double(tb_all.at("memory")) > double(tb_all.at("compute")) * 0.5);
  CHECK(double(all.at("result").at("llm").at("mbu")) > 0.5);
  CHECK(double(tb_two.at("memory")) < 0.05 * double(tb_two.at("compute")));
  CHECK(seconds(two) > 5 * seconds(all));
}

TEST_CASE("cpu prefill: compute-bound, linear in threads; AMX speeds the Xeon's prefill, not its decode") {
  auto p8 = run_hwsim_json(std::string("--chip graviton3 --set cpu.threads=8 -w ") + kPrefill, "p8.json");
  auto p16 = run_hwsim_json(std::string("--chip graviton3 --set cpu.threads=16 -w ") + kPrefill, "p16.json");
  CHECK(seconds(p8) / seconds(p16) == doctest::Approx(2).epsilon(0.05));
  CHECK(p8.at("result").at("bound") == "compute");
  auto amx = run_hwsim_json(std::string("--chip xeon_8480 -w ") + kPrefill, "amx.json");
  auto vnni = run_hwsim_json(std::string("--chip xeon_8480 --set cpu.matrix.kind=none -w ") + kPrefill, "vnni.json");
  CHECK(seconds(vnni) > 2 * seconds(amx));
  auto d_amx = run_hwsim_json(std::string("--chip xeon_8480 -w ") + kDecode, "damx.json");
  auto d_vnni = run_hwsim_json(std::string("--chip xeon_8480 --set cpu.matrix.kind=none -w ") + kDecode, "dvnni.json");
  CHECK(seconds(d_amx) == doctest::Approx(seconds(d_vnni)));
}

TEST_CASE("cpu capacity: Llama-3-70B in bf16 does not fit an M2 Pro's 32 GB: one line with the numbers and advice") {
  CliRun r = run_hwsim("--chip apple_m2_pro_cpu -w decode_llama70b -q");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "does not fit apple_m2_pro_cpu"));
  CHECK(contains(r.err, "weights=fp8/int8/int4"));
}

TEST_CASE("cpu config: bad input is one line naming the file, the key, what is wrong and what is right") {
  std::string line = xeon_error("cpu.threads=200");
  CHECK(contains(line, "--set: cpu.threads: 200 threads on 56 cores"));
  CHECK(contains(line, "at most 2 x cpu.cores"));
  line = xeon_error("cpu.matrix.units=0");
  CHECK(contains(line, "cpu.matrix.kind"));
  CHECK(contains(line, "give both, or cpu.matrix.kind = \"none\""));
  line = xeon_error("power.core_active=10W");
  CHECK(contains(line, "exceeds power.tdp 350 W"));
  line = xeon_error("cpu.isa=avx1024");
  CHECK(contains(line, "cpu.isa"));
  line = xeon_error("memory.hbm.size=80GB");  // another kind's key
  CHECK(contains(line, "memory.hbm.size: not a parameter of a cpu chip"));
  CHECK(lines_of(line).size() == 1);
}
