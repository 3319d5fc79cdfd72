#include "sim/config/toml_text.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include "sim/input_file.h"

namespace hwsim {

namespace {
// The nesting a line can open: outside strings, each '.' between key parts and each '[' or '{'
// (closed by ']' or '}') adds a level; '=' and ',' end a key, so the dots of numbers (1.5) and
// of a list's items never add up. Multi-line strings are scanned as lines too: that can only
// over-count, refusing an absurd line, never miss a deep key.
void check_nesting(const std::string& text, const std::string& path, ExitCode code) {
  int line = 1, brackets = 0, dots = 0;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n') {
      ++line, dots = 0, quote = 0;
      continue;
    }
    if (quote) {
      if (c == '\\' && quote == '"') ++i;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '#') {  // a comment runs to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '.') ++dots;
    else if (c == '[' || c == '{') ++brackets;
    else if ((c == ']' || c == '}') && brackets > 0) --brackets;
    else if (c == '=' || c == ',') dots = 0;
    if (brackets + dots > kMaxTomlNesting)
      throw UserError(code, fmt::format("{}:{}: a key or table nested more than {} levels deep (a dotted key of "
                                        "that many parts?)",
                                        shorten(path), line, kMaxTomlNesting));
  }
}
}  // namespace

toml::table parse_toml_text(const std::string& text, const std::string& path, ExitCode code) {
  check_nesting(text, path, code);
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw UserError(code, fmt::format("{}:{}:{}: TOML syntax error: {}", shorten(path), e.source().begin.line,
                                      e.source().begin.column, shorten(std::string(e.description()), 200)));
  }
}

}  // namespace hwsim
