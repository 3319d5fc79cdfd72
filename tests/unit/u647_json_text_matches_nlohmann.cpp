// The run document's records are written as text directly (viz/json_text.h); the text is what
// nlohmann::json's dump() writes for the same values: keys sorted, floats as nlohmann formats
// them, integers, strings escaped alike, nested objects indented.
#include <doctest/doctest.h>

#include <limits>
#include <nlohmann/json.hpp>

#include "viz/json_report.h"
#include "viz/json_text.h"

using namespace hwsim;

TEST_CASE("json text: an object with every kind of value is nlohmann's dump, indented and compact") {
  for (int indent : {-1, 2}) {
    JsonObjectText j(indent, 0);
    j.add_float("zeta", 0.1);
    j.add_float("alpha", 2.0);  // a whole float keeps its ".0"
    j.add_float("tiny", 1e-300);
    j.add_float("huge", 1.7976931348623157e308);
    j.add_float("negative_zero", -0.0);
    j.add_float("not_finite", std::numeric_limits<double>::infinity());  // null
    j.add_integer("count", -42);
    j.add_number("whole", 1056.0);  // an integer
    j.add_number("fraction", 7.5);
    j.add_string("text", "L0.qkv \"proj\"\\ \n\t\x01 µs");
    JsonObjectText& nested = j.add_object("bytes");
    nested.add_float("min", 3.0);
    nested.add_float("hbm", 1.5e9);
    j.add_object("empty");
    j.add_float("alpha", 3.25);  // set again: replaces
    std::string text;
    j.write(text);
    nlohmann::json parsed = nlohmann::json::parse(text);
    CHECK(parsed.dump(indent) == text);
    CHECK(parsed["alpha"].get<double>() == 3.25);
    CHECK(parsed["whole"].is_number_integer());
  }
}

TEST_CASE("json text: a record's object re-dumps to itself at its depth") {
  auto schema = std::make_shared<const RecordSchema>(
      RecordSchema{{"l2", "hbm"}, {{"ctas", Rollup::sum}, {"waves", Rollup::none}, {"bytes", Rollup::none}}});
  WorkRecord k;
  k.name = "L3.down_proj";
  k.op_class = "gemm";
  k.config = "tile 128x256x64 st4 splitk1";
  k.dtype = "bf16";
  k.start = 1.25e-5, k.end = 3.0000000000000004e-5, k.seconds = k.end - k.start, k.launch = 2e-6;
  k.flops = 1.2e9, k.min_bytes = 6.4e7, k.energy = 0.1 + 0.2;
  k.schema = schema;
  k.traffic = {1.1e8, 6.5e7};
  k.details = {132, 1.0 / 3, 17};  // "bytes" as a detail replaces the bytes object, as it always did
  k.breakdown = {1e-6, 2e-6, 0, 3e-6, 4e-7};
  k.bound = "memory";
  std::string text;
  append_kernel_json(text, k, 0);
  nlohmann::json parsed = nlohmann::json::parse(text);
  CHECK(parsed.dump(2) == text);
  CHECK(parsed["bytes"] == 17);
  CHECK(parsed["details"]["waves"].get<double>() == 1.0 / 3);
  CHECK(parsed["hbm_bandwidth"].is_number_float());
}
