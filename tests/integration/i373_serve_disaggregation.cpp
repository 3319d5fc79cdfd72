// Prefill/decode disaggregation on a system (h100x2, 1P1D): requests prefill on device 0, their
// KV cache crosses the NVLink to device 1, which decodes them. By hand: Llama-3-8B at layers=2
// holds 2 layers · 2 (K, V) · 8 KV heads · 128 · 2 B = 8192 B per position; a prompt of 64 sends
// 524,288 B, three requests 1,572,864 B. A transfer takes at least its bytes at the 18 NVLink4
// links' 478 GB/s, plus the collective launch. The prefill instance never decodes; the decode
// instance never prefills (no preemption here); each request's track shows prefill on instance 0,
// the KV transfer, then decode on instance 1.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli serve: disaggregate=1P1D splits prefill and decode over two devices, the KV over the link") {
  auto trace = scratch_dir() / "pd_trace.json";
  auto doc = scratch_dir() / "pd.json";
  CliRun r = run_hwsim("--system h100x2 -q -w serve:model=llama3_8b,layers=2,requests=3,prompt=64,output=4,"
                       "disaggregate=1P1D --trace '" + trace.string() + "' --json '" + doc.string() + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const auto s = nlohmann::json::parse(read_text(doc))["result"]["serving"];
  REQUIRE(s["instances"].size() == 2u);
  CHECK(s["instances"][0]["role"] == "prefill");
  CHECK(s["instances"][0]["devices"] == nlohmann::json::array({0}));
  CHECK(s["instances"][1]["role"] == "decode");
  CHECK(s["instances"][1]["devices"] == nlohmann::json::array({1}));
  CHECK(s["kv_transfers"]["count"] == 3);
  CHECK(s["kv_transfers"]["bytes"].get<double>() == 3.0 * 64 * 8192);
  CHECK(s["kv_transfers"]["seconds"]["mean"].get<double>() > 64 * 8192 / (18 * 26.5625e9));
  CHECK(s["output_tokens"] == 12);
  auto events = nlohmann::json::parse(read_text(trace))["traceEvents"];
  std::map<std::int64_t, std::vector<std::string>> track;  // request → "phase@instance"
  for (const auto& e : events) {
    if (e["ph"] != "X") continue;
    if (e["pid"] == 1 && e["cat"] == "step") {
      if (e["tid"] == 0) CHECK(e["args"]["decodes"] == 0);
      if (e["tid"] == 1) CHECK(e["args"]["prefill_tokens"] == 0);
    }
    if (e["pid"] == 2 && e["name"] != "queued" && e["name"] != "waiting for decode KV blocks")
      track[e["tid"]].push_back(e["name"].get<std::string>() + "@" + std::to_string(e["args"]["instance"].get<int>()));
  }
  REQUIRE(track.size() == 3u);
  for (const auto& [id, phases] : track)
    CHECK(phases == std::vector<std::string>{"prefill@0", "KV transfer@1", "decode@1"});
}
