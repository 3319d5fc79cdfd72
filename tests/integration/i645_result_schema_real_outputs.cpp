// docs/result.schema.json holds for real documents: a GPU decode, a TPU decode, an MCU inference, a system
// collective, serve runs, a --summary document; and the checker catches a broken document.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/fixtures/json_schema_check.h"
#include "tests/fixtures/test_support.h"

using namespace hwsim::test;

static SchemaCheck schema() {
  std::ifstream in(std::string(HWSIM_SOURCE_DIR) + "/docs/result.schema.json");
  return SchemaCheck(nlohmann::json::parse(in));
}

static nlohmann::json document(const std::string& args) {
  CliRun r = run_hwsim(args + " -q --json -");
  REQUIRE(r.exit_code == 0);
  return nlohmann::json::parse(r.out);
}

static void check_valid(const std::string& args) {
  auto errors = schema().errors(document(args));
  INFO(args);
  for (const auto& e : errors) INFO(e);
  CHECK(errors.empty());
  if (!errors.empty()) MESSAGE(errors.front());
}

TEST_CASE("schema: a GPU decode document is valid") { check_valid("--chip h100 -w decode_llama8b"); }
TEST_CASE("schema: a TPU decode document is valid") { check_valid("--chip tpu_v5e -w decode_llama8b"); }
TEST_CASE("schema: an MCU inference document is valid") { check_valid("--chip cortex_m55_u55 -w kws_dscnn"); }
TEST_CASE("schema: a system collective document is valid") {
  check_valid("--system h200x2 -w collective:op=all_reduce,bytes=64MiB");
}
TEST_CASE("schema: serve documents are valid (speculation; disaggregation on a system)") {
  check_valid("--chip h100 -w serve:model=llama3_8b,layers=1,requests=2,prompt=16,output=6,draft=llama3_2_1b,k=2");
  check_valid("--system h100x2 -w serve:model=llama3_8b,layers=1,requests=2,prompt=16,output=4,disaggregate=1P1D");
}
TEST_CASE("schema: a --summary document is valid") { check_valid("--chip h100 -w decode_llama8b --summary"); }

TEST_CASE("schema: a broken document is caught") {
  nlohmann::json doc = document("--chip h100 -w gemm:M=256,N=256,K=256");
  doc["schema_version"] = 2;
  doc["result"].erase("seconds");
  doc["result"]["steps"][0]["kernels"][0]["flops"] = "many";
  auto errors = schema().errors(doc);
  REQUIRE(errors.size() == 3);
  std::sort(errors.begin(), errors.end());
  CHECK(errors[0].rfind("/result/steps/0/kernels/0/flops: expected \"number\"", 0) == 0);
  CHECK(errors[1] == "/result: missing seconds");
  CHECK(errors[2] == "/schema_version: expected 1");
}
