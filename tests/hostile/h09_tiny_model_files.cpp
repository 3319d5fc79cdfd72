// Hostile TinyML model files (workloads/tiny/tiny_model.h): a stride of 0 (once SIGFPE in
// ceil_div), a 200,000-part dotted key (once a stack overflow inside toml++), a file past the
// input bound and negative sizes each end as one error line naming the file.
#include <doctest/doctest.h>

#include <fstream>

#include "sim/error.h"
#include "tests/fixtures/test_support.h"
#include "workloads/tiny/tiny_model.h"

using namespace hwsim;

namespace {
const std::string kGood = R"(description = "x"
input = [8, 8, 1]
[[layer]]
name = "c"
op = "conv"
filters = 4
kernel = 3
)";

std::string write(const std::string& name, const std::string& text) {
  auto path = test::scratch_dir() / name;
  std::ofstream(path) << text;
  return path.string();
}

std::string error_of(const std::string& path, ExitCode code = ExitCode::workload) {
  try {
    load_tiny_model_file(path, "m");
  } catch (const UserError& e) {
    CHECK(e.code() == code);
    return e.what();
  }
  return "(loaded)";
}
}  // namespace

TEST_CASE("hostile tiny model file: a well-formed file loads") {
  CHECK(load_tiny_model_file(write("good.toml", kGood), "m").layers.size() == 1);
}

TEST_CASE("hostile tiny model file: stride 0, a negative filter count and a huge input are out of range") {
  std::string e = error_of(write("s0.toml", kGood + "stride = 0\n"));
  CHECK(test::contains(e, "s0.toml:8: stride: 0 is out of range (a whole number from 1 to 65536)"));
  e = error_of(write("neg.toml", R"(input = [8, 8, 1]
[[layer]]
name = "c"
op = "conv"
filters = -4
)"));
  CHECK(test::contains(e, "neg.toml:5: filters: -4 is out of range"));
  e = error_of(write("big.toml", "input = [8, 8, 4294967296]\n[[layer]]\nname = \"c\"\nop = \"fc\"\nunits = 2\n"));
  CHECK(test::contains(e, "input[2]: 4294967296 is out of range"));
}

TEST_CASE("hostile tiny model file: a 200,000-part dotted key and a 70 MB file are refused in one line") {
  std::string key = "a";
  for (int i = 0; i < 200000; ++i) key += ".a";
  std::string e = error_of(write("deep.toml", key + " = 1\n" + kGood));
  CHECK(test::contains(e, "deep.toml:1: a key or table nested more than 64 levels deep"));
  std::string padding(70 << 20, '#');
  e = error_of(write("huge.toml", padding + "\n" + kGood), ExitCode::io);  // past the input bound, as every file
  CHECK(test::contains(e, "huge.toml"));
  CHECK(e.find('\n') == std::string::npos);
}
