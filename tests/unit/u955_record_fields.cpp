// validate's record fields (app/validate/measurement.h): a wrong type or a number no count can be
// is one line naming the file, the line and the field; a measured time must be positive.
#include <doctest/doctest.h>

#include "sim/measurement/measurement.h"
#include "sim/error.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim;

namespace {
Measurement record(const std::string& json) {
  Measurement m;
  m.fields = nlohmann::json::parse(json);
  m.line = 7;
  m.file = "m.jsonl";
  return m;
}
template <class F> std::string refusal(F&& read) {
  try {
    read();
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::io);
    return e.what();
  }
  FAIL("accepted");
  return {};
}
}  // namespace

TEST_CASE("record fields: typed, ranged, absent as nullopt") {
  Measurement m = record(R"({"M": 4096, "big": 1e30, "half": 2.5, "neg": -1, "dtype": 16, "name": "bf16", "flag": true})");
  CHECK(record_whole(m, "M") == 4096);
  CHECK_FALSE(record_whole(m, "absent").has_value());
  CHECK(refusal([&] { record_whole(m, "big"); }) == "m.jsonl:7: big: 1e+30 is not a whole number between 0 and 2^53");
  CHECK(test::contains(refusal([&] { record_whole(m, "half"); }), "2.5 is not a whole number"));
  CHECK(test::contains(refusal([&] { record_whole(m, "neg"); }), "-1 is not a whole number"));
  CHECK(test::contains(refusal([&] { record_whole(m, "M", 5000); }), "between 5000 and 2^53"));
  CHECK(refusal([&] { record_text(m, "dtype"); }) == "m.jsonl:7: dtype: 16 is not a string");
  CHECK(record_text(m, "name") == "bf16");
  CHECK(record_flag(m, "flag") == true);
  CHECK(test::contains(refusal([&] { record_flag(m, "name"); }), "is not true or false"));
}

TEST_CASE("record fields: a file's seconds must be a positive number") {
  auto path = test::scratch_dir() / "m.jsonl";
  std::ofstream(path) << R"({"kind": "gemm", "seconds": 0})" << "\n";
  CHECK(test::contains(refusal([&] { read_measurements(path.string()); }), "m.jsonl:1: seconds: 0 is not a positive time"));
  std::ofstream(path) << R"({"kind": "gemm", "seconds": "fast"})" << "\n";
  CHECK(test::contains(refusal([&] { read_measurements(path.string()); }), "seconds: \"fast\" is not a number"));
  std::ofstream(path) << R"({"kind": "gemm", "seconds": 1e-5})" << "\n";
  CHECK(read_measurements(path.string()).at(0).seconds == doctest::Approx(1e-5));
}
