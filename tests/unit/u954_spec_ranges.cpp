// Workload field ranges (workloads/spec.h): every numeric field is checked where it is parsed.
#include <doctest/doctest.h>

#include "sim/error.h"
#include "tests/fixtures/test_support.h"
#include "workloads/spec.h"
#include "workloads/workload.h"

using namespace hwsim;

namespace {
std::string refusal(const std::string& text, const std::function<void(const WorkloadSpec&)>& read) {
  try {
    read(WorkloadSpec::parse(text));
  } catch (const UserError& e) {
    CHECK(e.code() == ExitCode::workload);
    return e.what();
  }
  FAIL("accepted " << text);
  return {};
}
}  // namespace

TEST_CASE("spec ranges: whole numbers up to their bound, reals finite inside theirs") {
  auto n = [](const WorkloadSpec& s) { s.positive_int("n", 1, 100); };
  CHECK(WorkloadSpec::parse("w:n=100").positive_int("n", 1, 100) == 100);
  CHECK(test::contains(refusal("w:n=101", n), "n: '101' is out of range (a whole number between 1 and 100)"));
  CHECK(test::contains(refusal("w:n=99999999999999999999999", n), "is out of range"));
  CHECK(test::contains(refusal("w:n=1e3", n), "'1e3' is not a whole number"));
  CHECK(test::contains(refusal("w:n=0", n), "'0' must be at least 1"));
  auto big = [](const WorkloadSpec& s) { s.positive_int("n", 1); };
  CHECK(test::contains(refusal("w:n=2000000000000", big), "between 1 and 1099511627776"));
  auto r = [](const WorkloadSpec& s) { s.positive_real("r", 1); };
  CHECK(WorkloadSpec::parse("w:r=0.5").positive_real("r", 1) == 0.5);
  CHECK(test::contains(refusal("w:r=inf", r), "'inf' is not a finite number"));
  CHECK(test::contains(refusal("w:r=nan", r), "'nan' is not a finite number"));
  CHECK(test::contains(refusal("w:r=1e-300", r), "is out of range (a number between 1e-09 and 1e+12)"));
}

TEST_CASE("spec ranges: fields that multiply work declare tighter bounds") {
  auto build = [](const std::string& spec) {
    try {
      WorkloadCatalog::build(spec);
    } catch (const UserError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(test::contains(build("elementwise:D=16,repeat=10001"), "repeat: '10001' is out of range"));
  CHECK(test::contains(build("decode:model=llama3_8b,context=1,layers=4097"), "layers: '4097' is out of range"));
  CHECK(test::contains(build("generate:model=llama3_8b,prompt=1,output=32769"), "output: '32769' is out of range"));
  CHECK(test::contains(build("generate:model=llama3_8b,prompt=1"), "output: missing"));
  CHECK(build("decode:model=llama3_8b,context=1,layers=4") == "accepted");
}
