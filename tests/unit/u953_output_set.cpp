// OutputSet (app/cli/output_file.h): the outputs of one run are checked before it (two naming one
// destination, a missing folder) and written all or nothing after it.
#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>

#include "app/cli/output_file.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;
namespace fs = std::filesystem;

TEST_CASE("output set: two outputs naming one destination are refused, by any name") {
  auto dir = test::scratch_dir();
  OutputSet same;
  same.add("--json", (dir / "x").string(), [] { return "a"; });
  same.add("--trace", (dir / "." / "x").string(), [] { return "b"; });
  CHECK_THROWS_WITH_AS(same.check(), doctest::Contains("two outputs name one destination"), UserError);
  OutputSet both_stdout;
  both_stdout.add("--json", "-", [] { return "a"; });
  both_stdout.add("--svg", "-", [] { return "b"; });
  CHECK_THROWS_AS(both_stdout.check(), UserError);
  CHECK_FALSE(fs::exists(dir / "x"));
}

TEST_CASE("output set: one failing output leaves none of the others") {
  auto dir = test::scratch_dir();
  OutputSet outputs;
  outputs.add("--json", (dir / "a.json").string(), [] { return "{}"; });
  outputs.add("--trace", (dir / "none" / "t.json").string(), [] { return "[]"; });
  CHECK_THROWS_AS(outputs.write(), UserError);
  OutputSet late;  // the content of the second fails after the first is made
  late.add("--json", (dir / "b.json").string(), [] { return "{}"; });
  late.add("--html", (dir / "b.html").string(), []() -> std::string { throw UserError(ExitCode::workload, "boom"); });
  CHECK_THROWS_AS(late.write(), UserError);
  for (const auto& e : fs::directory_iterator(dir)) CHECK_MESSAGE(false, "left behind: " << e.path());
}

TEST_CASE("output set: every output is written when all succeed") {
  auto dir = test::scratch_dir();
  OutputSet outputs;
  outputs.add("--json", (dir / "a.json").string(), [] { return "{}\n"; });
  outputs.add("--svg", (dir / "a.svg").string(), [] { return "<svg/>\n"; });
  outputs.add("--html", "", [] { return "never"; });  // no path: no output
  outputs.write();
  CHECK(test::read_text(dir / "a.json") == "{}\n");
  CHECK(test::read_text(dir / "a.svg") == "<svg/>\n");
  CHECK_FALSE(outputs.takes_stdout());
}
