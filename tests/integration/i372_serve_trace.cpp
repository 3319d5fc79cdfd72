// --trace on a serve run: a Chrome trace (valid JSON) with a process of engines — one track per
// instance, one event per engine step — and a process of requests — one track per request, named
// after it, whose phases run back to back from its arrival (queued) to its last token (decode).
// Three requests in a pool of 3 blocks (kv_blocks=3): the third waits, one is preempted.
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

TEST_CASE("cli serve: --trace writes one track per request and one of engine steps") {
  auto trace = scratch_dir() / "serve_trace.json";
  auto doc = scratch_dir() / "serve_trace_run.json";
  CliRun r = run_hwsim("--chip h100 -q -w serve:model=llama3_8b,layers=1,requests=3,prompt=16,output=20,kv_blocks=3 "
                       "--trace '" + trace.string() + "' --json '" + doc.string() + "'");
  REQUIRE(r.exit_code == 0);
  auto events = nlohmann::json::parse(read_text(trace)).at("traceEvents");  // throws on invalid JSON
  const auto serving = nlohmann::json::parse(read_text(doc))["result"]["serving"];
  std::map<std::int64_t, std::string> request_tracks;
  std::map<std::int64_t, std::vector<nlohmann::json>> phases;
  int steps = 0;
  for (const auto& e : events) {
    if (e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == 2) request_tracks[e["tid"]] = e["args"]["name"];
    if (e["ph"] != "X") continue;
    CHECK(e["dur"].get<double>() >= 0);
    CHECK(e["ts"].get<double>() >= 0);
    if (e["pid"] == 1 && e["cat"] == "step") ++steps;
    if (e["pid"] == 2) phases[e["tid"]].push_back(e);
  }
  CHECK(steps == serving["engine_steps"].get<int>());
  REQUIRE(request_tracks.size() == 3u);
  for (std::int64_t id = 0; id < 3; ++id) {
    CHECK(request_tracks[id] == "request " + std::to_string(id));
    const auto& p = phases[id];
    REQUIRE(p.size() >= 2u);
    CHECK(p.front()["name"] == "queued");
    CHECK(p.back()["name"] == "decode");
    for (std::size_t k = 1; k < p.size(); ++k)  // back to back
      CHECK(p[k]["ts"].get<double>() == doctest::Approx(p[k - 1]["ts"].get<double>() + p[k - 1]["dur"].get<double>()));
  }
  bool preempted = false;
  for (const auto& [id, p] : phases)
    for (const auto& e : p) preempted |= e["name"] == "preempted (recompute)";
  CHECK(preempted);
}
