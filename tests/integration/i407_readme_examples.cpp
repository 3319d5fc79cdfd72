// Every hwsim command in README.md's ```sh blocks runs as written and exits 0 (or the code its
// comment announces, "exit 4", for an example of a workload that does not fit). The commands run
// in a scratch folder laid out like the repository (configs, workloads, data, tests and build/hwsim
// linked; ../shared beside it), so the files they write (out.json, study.csv, ...) stay out of the
// source tree. One case per README section keeps each process short; a last case checks that
// every command belongs to one of them. Left out: scripts/setup.sh (installs and builds) and
// build/bench/* (benchmarks, which measure speed: README "Benchmark").
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "tests/fixtures/test_support.h"

using namespace hwsim::test;
namespace fs = std::filesystem;

namespace {

struct Example {
  std::string command;
  int exit_code = 0;  // "exit N" in its comment, else 0
};

// README section heading -> the hwsim commands of its ```sh blocks, comments cut.
std::map<std::string, std::vector<Example>> readme_commands() {
  std::map<std::string, std::vector<Example>> out;
  std::string section;
  bool in_sh = false;
  for (const std::string& line : lines_of(read_text(fs::path(HWSIM_SOURCE_DIR) / "README.md"))) {
    if (line.rfind("## ", 0) == 0) section = line.substr(3);
    if (line.rfind("```", 0) == 0) {
      in_sh = !in_sh && line == "```sh";
      continue;
    }
    if (!in_sh || line.rfind("build/hwsim", 0) != 0) continue;
    std::string command = line.substr(0, line.find(" #"));
    while (!command.empty() && command.back() == ' ') command.pop_back();
    std::string comment = line.find(" #") == std::string::npos ? "" : line.substr(line.find(" #"));
    auto at = comment.find("exit ");
    int code = at == std::string::npos ? 0 : std::atoi(comment.c_str() + at + 5);
    out[section].push_back({command, code});
  }
  return out;
}

fs::path readme_root() {
  fs::path root = scratch_dir() / "readme" / "repo";
  fs::create_directories(root / "build");
  const fs::path source = HWSIM_SOURCE_DIR;
  for (const char* dir : {"configs", "workloads", "data", "tests", "docs"}) fs::create_directory_symlink(source / dir, root / dir);
  fs::create_symlink(HWSIM_BINARY, root / "build" / "hwsim");
  if (fs::exists(source / ".." / "shared")) fs::create_directory_symlink(fs::canonical(source / ".." / "shared"), root / ".." / "shared");
  return root;
}

void run_section(const std::string& heading) {
  auto commands = readme_commands();
  REQUIRE_MESSAGE(commands.count(heading), heading);
  const fs::path root = readme_root();
  int n = 0;
  for (const Example& example : commands.at(heading)) {
    fs::path out = root / ("out" + std::to_string(++n));
    std::string shell = "cd '" + root.string() + "' && " + example.command + " >'" + out.string() + "' 2>&1";
    int status = std::system(shell.c_str());
    INFO(example.command);
    INFO(read_text(out));
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == example.exit_code);
  }
}

const std::vector<std::string> kSections = {"Usage", "Language-model workloads", "Serving (`serve:`)",
                                            "TPUs (systolic-array chips)", "The compute spectrum: more GPUs, AMD, microcontrollers",
                                            "Systems of chips (`--system`)", "Kernel programs (warp level)",
                                            "GPU contrasts: attention implementations, quantised weights, alignment, softmax",
                                            "Power, clocks and energy"};

}  // namespace

TEST_CASE("readme: every section with hwsim commands is run by a case below") {
  auto commands = readme_commands();
  std::size_t total = 0;
  for (const auto& entry : commands) {
    const std::string& section = entry.first;
    const auto& list = entry.second;
    CHECK_MESSAGE(std::find(kSections.begin(), kSections.end(), section) != kSections.end(), section);
    total += list.size();
  }
  CHECK(total >= 40);  // the README's examples, found
}

TEST_CASE("readme: Usage") { run_section(kSections[0]); }
TEST_CASE("readme: Language-model workloads") { run_section(kSections[1]); }
TEST_CASE("readme: Serving") { run_section(kSections[2]); }
TEST_CASE("readme: TPUs") { run_section(kSections[3]); }
TEST_CASE("readme: the compute spectrum") { run_section(kSections[4]); }
TEST_CASE("readme: systems of chips") { run_section(kSections[5]); }
TEST_CASE("readme: kernel programs") { run_section(kSections[6]); }
TEST_CASE("readme: GPU contrasts") { run_section(kSections[7]); }
TEST_CASE("readme: power, clocks and energy") { run_section(kSections[8]); }
