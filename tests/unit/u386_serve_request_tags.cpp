// What a request file says requests share and their priorities (workloads/serve/request_files.h):
// optional prefix_group/prefix_tokens and priority columns (CSV, in any order) or keys (JSONL), an
// empty cell for none; a dataset's sampled requests keep their row's; `columns` says which a file had.
#include <doctest/doctest.h>

#include <fstream>

#include "tests/fixtures/test_support.h"
#include "workloads/serve/request_files.h"

using namespace hwsim;
using hwsim::test::scratch_dir;

namespace {
std::string write(const std::string& name, const std::string& body) {
  auto path = scratch_dir() / name;
  std::ofstream(path) << body;
  return path.string();
}
}  // namespace

TEST_CASE("serve request files: prefix and priority columns, CSV and JSONL, empty cells for none") {
  RequestFileColumns cols;
  auto csv = read_serve_trace(write("u386.csv", "priority,prefix_tokens,output_tokens,prompt_tokens,prefix_group,arrival_s\n"
                                                "2,64,8,100,3,0.5\n,,8,100,,0.75\n-1,0,8,100,0,1\n"),
                              &cols);
  REQUIRE(csv.size() == 3);
  CHECK(cols.prefix);
  CHECK(cols.priority);
  CHECK(csv[0].priority == 2);
  CHECK(csv[0].prefix_group == 3);
  CHECK(csv[0].prefix_tokens == 64);
  CHECK(csv[1].priority == 0);
  CHECK(csv[1].prefix_group == -1);
  CHECK(csv[1].prefix_tokens == 0);
  CHECK(csv[2].priority == -1);
  CHECK(csv[2].prefix_group == 0);
  auto jsonl = read_serve_trace(write("u386.jsonl", "{\"arrival_s\": 0, \"prompt_tokens\": 50, \"output_tokens\": 4, "
                                                    "\"prefix_group\": 1, \"prefix_tokens\": 48, \"priority\": 5}\n"
                                                    "{\"arrival_s\": 1, \"prompt_tokens\": 50, \"output_tokens\": 4}\n"),
                                &cols);
  REQUIRE(jsonl.size() == 2);
  CHECK(jsonl[0].prefix_group == 1);
  CHECK(jsonl[0].prefix_tokens == 48);
  CHECK(jsonl[0].priority == 5);
  CHECK(jsonl[1].prefix_group == -1);
  CHECK(jsonl[1].priority == 0);
  auto plain = read_serve_trace(write("u386_plain.csv", "arrival_s,prompt_tokens,output_tokens\n0,10,2\n"), &cols);
  CHECK_FALSE(cols.prefix);
  CHECK_FALSE(cols.priority);
  CHECK(plain[0].prefix_group == -1);
}

TEST_CASE("serve request files: a dataset's sampled requests keep their row's prefix and priority") {
  RequestFileColumns cols;
  auto rows = read_serve_dataset(write("u386_d.csv", "prompt_tokens,output_tokens,prefix_group,prefix_tokens,priority\n"
                                                     "100,8,0,96,1\n200,8,1,160,2\n"),
                                 &cols);
  auto drawn = sample_dataset(rows, 6, 10.0, 3);
  REQUIRE(drawn.size() == 6);
  for (const ServeRequest& r : drawn) {
    CHECK(r.prefix_group == (r.prompt == 100 ? 0 : 1));
    CHECK(r.prefix_tokens == (r.prompt == 100 ? 96 : 160));
    CHECK(r.priority == (r.prompt == 100 ? 1 : 2));
  }
}
