#include "viz/json_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

namespace hwsim {

namespace {
void append_newline_indent(std::string& out, int indent, int depth) {
  out += '\n';
  out.append(std::size_t(indent * depth), ' ');
}
}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += hex[(c >> 4) & 0xf];
          out += hex[c & 0xf];
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void append_json_float(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buffer[64];
  char* end = nlohmann::detail::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, std::size_t(end - buffer));
}

void append_json_integer(std::string& out, std::int64_t v) {
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  out.append(buffer, std::size_t(end - buffer));
}

void append_json_number(std::string& out, double v) {
  if (v == std::floor(v) && std::fabs(v) < 9e15) return append_json_integer(out, std::int64_t(v));
  append_json_float(out, v);
}

JsonObjectText::Field& JsonObjectText::field(std::string_view key) {
  for (auto& f : fields_)
    if (f.key == key) {
      f.begin = f.end = values_.size();
      f.object = -1;
      return f;
    }
  fields_.push_back({key, values_.size(), values_.size(), -1});
  return fields_.back();
}

void JsonObjectText::add_float(std::string_view key, double v) {
  Field& f = field(key);
  append_json_float(values_, v);
  f.end = values_.size();
}

void JsonObjectText::add_integer(std::string_view key, std::int64_t v) {
  Field& f = field(key);
  append_json_integer(values_, v);
  f.end = values_.size();
}

void JsonObjectText::add_number(std::string_view key, double v) {
  Field& f = field(key);
  append_json_number(values_, v);
  f.end = values_.size();
}

void JsonObjectText::add_string(std::string_view key, std::string_view v) {
  Field& f = field(key);
  append_json_string(values_, v);
  f.end = values_.size();
}

JsonObjectText& JsonObjectText::add_object(std::string_view key) {
  Field& f = field(key);
  f.object = int(nested_.size());
  return nested_.emplace_back(indent_, depth_ + 1);
}

void JsonObjectText::write(std::string& out) const {
  if (fields_.empty()) {
    out += "{}";
    return;
  }
  std::vector<const Field*> sorted;
  sorted.reserve(fields_.size());
  for (const auto& f : fields_) sorted.push_back(&f);
  std::sort(sorted.begin(), sorted.end(), [](const Field* a, const Field* b) { return a->key < b->key; });
  out += '{';
  bool first = true;
  for (const Field* f : sorted) {
    if (!first) out += ',';
    first = false;
    if (indent_ >= 0) append_newline_indent(out, indent_, depth_ + 1);
    append_json_string(out, f->key);
    out += indent_ >= 0 ? ": " : ":";
    if (f->object >= 0) nested_[std::size_t(f->object)].write(out);
    else out.append(values_, f->begin, f->end - f->begin);
  }
  if (indent_ >= 0) append_newline_indent(out, indent_, depth_);
  out += '}';
}

void JsonObjectText::reset(int depth) {
  depth_ = depth;
  values_.clear();
  fields_.clear();
  nested_.clear();
  owned_keys_.clear();
}

void append_array_open(std::string& out, int indent, int depth, bool empty) {
  out += '[';
  if (!empty && indent >= 0) append_newline_indent(out, indent, depth + 1);
}

void append_array_separator(std::string& out, int indent, int depth) {
  out += ',';
  if (indent >= 0) append_newline_indent(out, indent, depth + 1);
}

void append_array_close(std::string& out, int indent, int depth, bool empty) {
  if (!empty && indent >= 0) append_newline_indent(out, indent, depth);
  out += ']';
}

}  // namespace hwsim
