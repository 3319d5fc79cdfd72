// Resolution order: declared default < extends parent < child file < --set (later --set wins);
// the resolved configuration holds every declared key, defaults and overrides included.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ops/device.h"
#include "sim/config/param.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
using namespace hwsim::test;

TEST_CASE("config: extends then --set precedence") {
  std::string file = fixture("config/good/whatif_hbm.toml");
  Config c = load_chip(file, {"gpu.sm_count=120", "memory.l2.size=60 MiB", "memory.l2.size=40MiB"});
  CHECK(c.whole("gpu.sm_count") == 120);                        // --set beats the child file (100)
  CHECK(c.value("gpu.sm_count").origin == "--set");
  CHECK(c.number("memory.hbm.bandwidth") == doctest::Approx(4.8e12));  // child beats h100's 3.35 TB/s
  CHECK(c.value("memory.hbm.bandwidth").origin == file + ":7");
  CHECK(c.number("gpu.sm.clock") == doctest::Approx(1.98e9));   // inherited from h100.toml
  CHECK(c.number("memory.l2.size") == 40.0 * 1024 * 1024);      // the later --set wins
  CHECK(c.text("name") == "H100 what-if");
}

TEST_CASE("config: the resolved configuration has every declared key of its kind with defaults and overrides") {
  Config c = load_chip(fixture("config/good/minimal.toml"), {"memory.hbm.bandwidth=2 TB/s"});
  CHECK(c.kind() == "gpu");  // the file names no kind: a GPU, as every chip file before kinds
  auto resolved = nlohmann::json::parse(c.resolved_json());
  for (const auto& decl : ParamCatalog::instance().all()) {
    std::string path = "/";
    for (char ch : decl.key) path.push_back(ch == '.' ? '/' : ch);  // gpu.sm.clock → /gpu/sm/clock
    // Scoped configuration: a GPU chip holds the keys of its kind's components and no others.
    CHECK_MESSAGE(resolved.contains(nlohmann::json::json_pointer(path)) == applies_to(decl, "gpu"), decl.key);
  }
  // A default the file does not set: gpu.sm.max_warps, declared with a default.
  const ParamDecl* warps = ParamCatalog::instance().find("gpu.sm.max_warps");
  REQUIRE(warps);
  REQUIRE(warps->default_value);
  CHECK(c.value("gpu.sm.max_warps").origin == "default");
  CHECK(resolved["gpu"]["sm"]["max_warps"].get<long>() == std::stol(*warps->default_value));
  // The override is in the resolved document as written.
  CHECK(resolved["memory"]["hbm"]["bandwidth"].get<std::string>() == "2 TB/s");
  CHECK(c.number("memory.hbm.bandwidth") == doctest::Approx(2e12));
  // The file's own values too.
  CHECK(resolved["gpu"]["sm_count"].get<long>() == 4);
  CHECK(resolved["name"].get<std::string>() == "minimal");
}
