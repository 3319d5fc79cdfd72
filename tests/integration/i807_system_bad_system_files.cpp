// A bad system file is one line naming the file, line and key, exit 3 (bad configuration), and no
// output file. Each file extends the shipped h200x2.toml and changes one thing.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

namespace {
// Writes a system file extending configs/systems/h200x2.toml with `body`, returns its path.
std::string system_extending_h200x2(const std::string& name, const std::string& body) {
  auto path = scratch_dir() / name;
  std::ofstream(path) << "extends = \"" << HWSIM_SOURCE_DIR << "/configs/systems/h200x2.toml\"\n" << body;
  return path.string();
}

CliRun run_collective(const std::string& system, const std::filesystem::path& json) {
  return run_hwsim("--system '" + system + "' -w collective:op=all_reduce,bytes=1MiB,ranks=2 --json '" + json.string() + "'");
}
}  // namespace

TEST_CASE("cli system: a link of 0 GB/s exits 3 naming the key and its line") {
  std::string file = system_extending_h200x2("zero.toml", "[scale_up]\nlink_bandwidth = \"0 GB/s\"\n");
  auto json = scratch_dir() / "never.json";
  CliRun r = run_collective(file, json);
  CHECK(r.exit_code == 3);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, file + ":3: scale_up.link_bandwidth"));
  CHECK(contains(r.err, "greater than zero"));
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli system: two nodes without a network between them exit 3") {
  std::string file = system_extending_h200x2("nodes.toml", "[system]\nnodes = 2\n");
  auto json = scratch_dir() / "never.json";
  CliRun r = run_collective(file, json);
  CHECK(r.exit_code == 3);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, "2 nodes need a network"));
  CHECK(contains(r.err, "scale_out.topology"));
  CHECK_FALSE(std::filesystem::exists(json));
}

TEST_CASE("cli system: an unknown system key exits 3 with a did-you-mean") {
  std::string file = system_extending_h200x2("typo.toml", "[scale_up]\nswitchez = 2\n");
  auto json = scratch_dir() / "never.json";
  CliRun r = run_collective(file, json);
  CHECK(r.exit_code == 3);
  REQUIRE(lines_of(r.err).size() == 1);
  CHECK(contains(r.err, file + ":3: scale_up.switchez: unknown key in [scale_up]"));
  CHECK(contains(r.err, "did you mean scale_up.switches?"));
  CHECK_FALSE(std::filesystem::exists(json));
}
