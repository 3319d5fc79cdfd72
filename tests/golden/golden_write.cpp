// Writes the golden files (tests/golden/CASE.json) from the hwsim binary this build made:
//   build/tests/golden_write            every case
//   build/tests/golden_write NAME ...   only those cases
// Run it only when a change of numbers is intended, and commit the files with a message that
// says why (tests/golden/README.md).
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "tests/golden/golden.h"

int main(int argc, char** argv) {
  using namespace hwsim::golden;
  std::set<std::string> wanted(argv + 1, argv + argc);
  int written = 0;
  for (const GoldenCase& c : golden_cases()) {
    if (!wanted.empty() && !wanted.count(c.name)) continue;
    try {
      GoldenFigures figures = case_figures(c, HWSIM_BINARY, HWSIM_SOURCE_DIR);
      std::string path = golden_path(HWSIM_SOURCE_DIR, c.name);
      std::ofstream(path) << golden_text(c.name, figures);
      std::printf("%s: %zu figures\n", path.c_str(), figures.size());
      ++written;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "golden_write: %s: %s\n", c.name.c_str(), e.what());
      return 1;
    }
  }
  if (written == 0) std::fprintf(stderr, "golden_write: no case matched\n");
  return written == 0;
}
