#include "models/gpu/warp/ptx_scan.h"

#include <cctype>

namespace hwsim::warp {
namespace {

bool label_text(const std::string& s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_' || s[0] == '$' || s[0] == '%')) return false;
  for (char c : s)
    if (!(std::isalnum((unsigned char)c) || c == '_' || c == '$' || c == '%')) return false;
  return true;
}

std::string trim(const std::string& s) {
  std::size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

std::vector<PtxItem> scan_ptx(const std::string& src) {
  std::vector<PtxItem> out;
  std::string cur;
  int line = 1, col = 1, start_line = 1, start_col = 1;
  auto emit = [&](PtxItem::Kind k) {
    std::string t = trim(cur);
    if (!t.empty() || k != PtxItem::statement) out.push_back({k, t, start_line, start_col});
    cur.clear();
  };
  auto note_start = [&] {
    if (trim(cur).empty()) start_line = line, start_col = col;
  };
  for (std::size_t i = 0; i < src.size(); ++i) {
    char c = src[i];
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '/') {  // comment to the end of the line
      while (i < src.size() && src[i] != '\n') ++i;
      --i;
      continue;
    }
    if (c == '/' && i + 1 < src.size() && src[i + 1] == '*') {
      for (i += 2; i + 1 < src.size() && !(src[i] == '*' && src[i + 1] == '/'); ++i)
        if (src[i] == '\n') ++line, col = 1;
      ++i;
      continue;
    }
    if (c == '"') {  // .file's path: skipped
      for (++i; i < src.size() && src[i] != '"' && src[i] != '\n'; ++i) {}
      cur += "\"\"";
      continue;
    }
    if (c == '\n') {
      // .loc, .file and .section end at their line (debug directives, no ';')
      const std::string p = trim(cur);
      if (p.rfind(".loc", 0) == 0 || p.rfind(".file", 0) == 0 || p.rfind(".section", 0) == 0) emit(PtxItem::statement);
      ++line, col = 1;
      cur += ' ';
      continue;
    }
    const std::string pending = trim(cur);
    if (c == ';') {
      emit(PtxItem::statement);
    } else if (c == '{' && (pending.empty() || pending[0] == '.')) {
      if (!pending.empty()) emit(PtxItem::statement);
      start_line = line, start_col = col;
      emit(PtxItem::open);
    } else if (c == '}' && (pending.empty() || pending[0] == '.')) {  // a directive list (.section's data) ends too
      if (!pending.empty()) emit(PtxItem::statement);
      start_line = line, start_col = col;
      emit(PtxItem::close);
    } else if (c == ':' && label_text(pending) && !(i + 1 < src.size() && src[i + 1] == ':')) {
      cur = pending;
      emit(PtxItem::label);
    } else {
      note_start();
      cur += c;
    }
    ++col;
  }
  emit(PtxItem::statement);
  return out;
}

}  // namespace hwsim::warp
