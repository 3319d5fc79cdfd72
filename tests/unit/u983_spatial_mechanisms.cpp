// The spatial kind's mechanisms, each from its parameters, not from a number: a Wormhole n150 streams
// Llama-3.1-8B's weights from GDDR6 (its decode moves with the DRAM bandwidth), a Groq deployment holds
// them in SRAM over its chips (its decode moves with the chip-to-chip hops more than with SRAM), the NoC's
// hops across a region, the pipeline of chips, and the capacity check's answer: the chips a model needs.
// Bad input is one line.
#include <doctest/doctest.h>

#include "models/spatial/spatial_chip.h"
#include "models/spatial/spatial_lowering.h"
#include "models/spatial/spatial_placement.h"
#include "ops/device.h"
#include "sim/error.h"
#include "tests/fixtures/json_run.h"

using namespace hwsim;
using namespace hwsim::test;

namespace {
const char* kDecode8b = "decode:model=llama3_1_8b,weights=int4,kv=int8,context=128";
const char* kGroq8b = "decode:model=llama3_1_8b,weights=int8,kv=int8,context=512";
double seconds(const nlohmann::json& d) { return d.at("result").at("seconds"); }

SpatialChip chip(const std::string& name, const std::vector<std::string>& set = {}) {
  return SpatialChip::from_config(load_chip(chip_file(name), set));
}

// The one line loading `name` with `set` and building its typed chip throws (a config error).
std::string chip_error(const std::string& name, const std::string& set) {
  try {
    chip(name, {set});
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::config);
    return e.what();
  }
  FAIL(name << " with " << set << " was accepted");
  return {};
}

// A graph of `n` weighted GEMMs of `bytes` bf16 weights each (M = 1), one after another.
OpGraph gemm_chain(int n, double bytes, std::vector<OpVertex>& order) {
  OpGraph g;
  for (int i = 0; i < n; ++i) {
    Op op;
    op.name = "gemm" + std::to_string(i);
    op.op_class = "gemm";
    std::int64_t k = 4096;
    GemmOp gemm;
    gemm.m = 1;
    gemm.n = std::int64_t(bytes / 2 / double(k));
    gemm.k = k;
    op.shape = gemm;
    order.push_back(add_op(g, op, order.empty() ? std::vector<OpVertex>{} : std::vector<OpVertex>{order.back()}));
  }
  return g;
}
}  // namespace

TEST_CASE("spatial placement: weights resident in SRAM where they fit, streamed from DRAM where not") {
  SpatialChip wh = chip("tt_wormhole_n150");  // 72 cores x 1464 KiB = 108 MB of SRAM
  std::vector<OpVertex> order;
  OpGraph g = gemm_chain(4, 32 * 1024 * 1024, order);  // 4 x 32 MiB: three fit, the fourth streams
  StepPlacement p = place_step(g, order, wh);
  CHECK(p.ops[0].resident);
  CHECK(p.ops[2].resident);
  CHECK_FALSE(p.ops[3].resident);
  CHECK(p.streamed_bytes == doctest::Approx(32 * 1024 * 1024));
  // Each resident op is spread over the cores that hold its weights.
  CHECK(p.ops[0].cores == doctest::Approx(std::ceil(32 * 1024 * 1024 / wh.sram_per_core)));
  // Without DRAM the same step needs more chips: one line with the count.
  SpatialChip groq = chip("groq_lpu");
  std::vector<OpVertex> big_order;
  OpGraph big = gemm_chain(10, 100e6, big_order);  // 1 GB over 230 MB chips: 5 chips
  try {
    place_step(big, big_order, groq);
    FAIL("1 GB of weights was placed on one Groq chip");
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    CHECK(contains(e.what(), "5 chips of 230 MB SRAM hold it (1 given): --set spatial.chips=5"));
  }
}

TEST_CASE("spatial placement: a pipeline lays ops chip after chip; tensor parallel spreads each over all") {
  std::vector<OpVertex> order;
  OpGraph g = gemm_chain(10, 100e6, order);
  StepPlacement pipe = place_step(g, order, chip("groq_lpu", {"spatial.chips=5"}));
  CHECK(pipe.ops[0].first_chip == 0);
  CHECK(pipe.ops[9].first_chip + pipe.ops[9].chips - 1 == 4);  // the last op ends on the last chip
  CHECK(pipe.ops[2].chips == 2);  // bytes 200-300 MB straddle the first chip's 230 MB
  StepPlacement tp = place_step(g, order, chip("tt_wormhole_n300"));
  for (const auto& op : tp.ops) CHECK(op.chips == 2);
}

TEST_CASE("spatial NoC: an activation crosses its region's two sides, or the chip's span (halved on a torus)") {
  SpatialChip wh = chip("tt_wormhole_n150");  // 8 x 9 torus
  CHECK(noc_hops(16, wh) == 6);                // a 4 x 4 region: 3 + 3 hops
  CHECK(noc_hops(72, wh) == doctest::Approx((7 + 8) / 2.0));
  SpatialChip mesh = chip("tt_wormhole_n150", {"spatial.noc.topology=mesh"});
  CHECK(noc_hops(72, mesh) == 15);
}

TEST_CASE("spatial decode: Wormhole streams the weights from GDDR6, so its decode follows the DRAM bandwidth") {
  auto base = run_hwsim_json(std::string("--chip tt_wormhole_n150 -w ") + kDecode8b, "wh.json");
  auto fast = run_hwsim_json(std::string("--chip tt_wormhole_n150 --set spatial.dram.bandwidth=576GB/s --set spatial.dram.energy_per_byte=0J -w ") + kDecode8b,
                             "wh2.json");
  CHECK(seconds(base) / seconds(fast) > 1.8);
  CHECK(base.at("result").at("bound") == "memory");
}

TEST_CASE("spatial decode: Groq's chips hold the weights in SRAM; the rate is set by the pipeline and its links") {
  auto base = run_hwsim_json(std::string("--chip groq_lpu --set spatial.chips=38 -w ") + kGroq8b, "g.json");
  auto sram = run_hwsim_json(std::string("--chip groq_lpu --set spatial.chips=38 --set spatial.core.sram_bandwidth=8TB/s -w ") +
                                 kGroq8b, "g_sram.json");
  auto hops = run_hwsim_json(std::string("--chip groq_lpu --set spatial.chips=38 --set spatial.c2c.latency=10us -w ") +
                                 kGroq8b, "g_hops.json");
  // Twice the SRAM bandwidth gains little: each op reads its weights on the cores they sit on, in parallel.
  CHECK(seconds(sram) > 0.8 * seconds(base));
  // The GEMM weights fill 33 chips (the embedding table, a gather, is not placed): each of the 32 hops
  // between them adds the latency's increase once.
  double added = 10e-6 - chip("groq_lpu").c2c_latency;
  CHECK(seconds(hops) - seconds(base) == doctest::Approx(32 * added).epsilon(0.01));
  // Chips beyond those the weights fill hold nothing: the same pipeline, the same time.
  auto longer = run_hwsim_json(std::string("--chip groq_lpu --set spatial.chips=78 -w ") + kGroq8b, "g78.json");
  CHECK(seconds(longer) == doctest::Approx(seconds(base)));
}

TEST_CASE("spatial capacity: a model the chips cannot hold is one line with the chips it needs") {
  CliRun r = run_hwsim(std::string("--chip groq_lpu --set spatial.fit_chips=false -w ") + kGroq8b + " -q");
  CHECK(r.exit_code == 4);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "does not fit groq_lpu"));
  CHECK(contains(r.err, "chips of 230 MB SRAM hold it (1 given): --set spatial.chips="));
  CliRun wh = run_hwsim("--chip tt_wormhole_n150 -w decode_llama70b -q");
  CHECK(wh.exit_code == 4);
  CHECK(contains(wh.err, "chips of 12 GB DRAM hold it (1 given)"));
}

TEST_CASE("spatial config: bad input is one line naming the key, what is wrong and what is right") {
  std::string line = chip_error("tt_wormhole_n150", "spatial.dram.size=0B");
  CHECK(contains(line, "spatial.dram.kind"));
  CHECK(contains(line, "or kind \"none\" with neither"));
  line = chip_error("groq_lpu", "spatial.power.active=400W");
  CHECK(contains(line, "exceeds power.tdp 300 W per chip"));
  line = chip_error("cerebras_wse3", "spatial.chip_parallel=ring");
  CHECK(contains(line, "spatial.chip_parallel"));
  line = chip_error("groq_lpu", "memory.hbm.size=80GB");  // another kind's key
  CHECK(contains(line, "memory.hbm.size: not a parameter of a spatial chip"));
  CHECK(lines_of(line).size() == 1);
}

// spatial.fit_chips (on in the shipped Groq file): the deployment takes the count the capacity check's refusal names, and runs as
// that count given by hand (seconds, energy, power); a larger count given stays, a fit never shrinks it.
TEST_CASE("spatial fit_chips: a Groq deployment grows to the chips the refusal names, the same run as that count given") {
  CliRun refused = run_hwsim(std::string("--chip groq_lpu --set spatial.fit_chips=false -q -w ") + kGroq8b);
  REQUIRE(refused.exit_code == 4);
  const std::string key = "--set spatial.chips=";
  auto at = refused.err.find(key);
  REQUIRE(at != std::string::npos);
  int needed = std::stoi(refused.err.substr(at + key.size()));
  CHECK(needed > 1);
  auto fitted = run_hwsim_json(std::string("--chip groq_lpu -w ") + kGroq8b, "fit.json");  // the shipped file fits
  auto given = run_hwsim_json("--chip groq_lpu --set spatial.chips=" + std::to_string(needed) + " -w " + kGroq8b,
                              "given.json");
  CHECK(seconds(fitted) == seconds(given));
  CHECK(fitted.at("result").at("energy") == given.at("result").at("energy"));
  CHECK(fitted.at("result").at("average_power") == given.at("result").at("average_power"));
  auto more = run_hwsim_json("--chip groq_lpu --set spatial.fit_chips=true --set spatial.chips=" +
                                 std::to_string(2 * needed) + " -w " + kGroq8b, "more.json");
  auto more_given = run_hwsim_json("--chip groq_lpu --set spatial.chips=" + std::to_string(2 * needed) + " -w " + kGroq8b,
                                   "more_given.json");
  CHECK(more.at("result").at("energy") == more_given.at("result").at("energy"));
  CHECK(more.at("result").at("energy") != given.at("result").at("energy"));  // twice the chips idle
}
