#pragma once
// PTX text into statements: comments and strings dropped, each statement with the line and column
// it starts at, labels and braces apart. Internal to the PTX reader (ptx_reader.h).
#include <string>
#include <vector>

namespace hwsim::warp {

struct PtxItem {
  enum Kind { statement, open, close, label } kind = statement;
  std::string text;   // the statement (without its ';') or the label's name
  int line = 0, col = 0;
};

// A `{` opens a block when no statement is pending or the pending one is a directive (an .entry
// header); otherwise it belongs to the statement (a vector operand {%f1, %f2}). Likewise `}`.
std::vector<PtxItem> scan_ptx(const std::string& source);

}  // namespace hwsim::warp
