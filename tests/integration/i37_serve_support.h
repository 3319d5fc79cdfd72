#pragma once
// Helpers for the serve CLI tests (i370–i379).
#include <doctest/doctest.h>

#include <string>

#include "tests/fixtures/test_support.h"

namespace hwsim::test {

// Bad serve input: one stderr line holding `text`, nothing on stdout, exit 4.
inline void one_line(const CliRun& r, const std::string& text) {
  CHECK(r.exit_code == 4);
  auto lines = lines_of(r.err);
  REQUIRE(lines.size() == 1);
  CHECK_MESSAGE(contains(lines[0], text), lines[0]);
  CHECK(r.out.empty());
}

}  // namespace hwsim::test
