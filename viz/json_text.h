#pragma once
// JSON text written directly, byte for byte as nlohmann::json's dump() writes the same values (an
// object's keys sorted, a float as nlohmann formats it, strings escaped alike), without building
// a document: for what numbers in the millions (a run's records, a trace's events). The small
// parts of a document stay nlohmann::json; these pieces are spliced into its text.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace hwsim {

// Appends `s` as a JSON string (quoted and escaped as nlohmann's dump escapes it).
void append_json_string(std::string& out, std::string_view s);
// Appends `v` as nlohmann writes a float (shortest round-trip digits, "2.0" for a whole number,
// "null" for infinities and NaN).
void append_json_float(std::string& out, double v);
void append_json_integer(std::string& out, std::int64_t v);
// A whole number below 9e15 as an integer, anything else as a float (counts such as ctas).
void append_json_number(std::string& out, double v);

// One JSON object: fields are added in any order, written sorted by key. Setting a key again
// replaces its value, as j[key] = value does.
class JsonObjectText {
 public:
  // indent < 0: compact (dump()); otherwise the indent of dump(indent), with this object written
  // at nesting `depth` (the top-level value is depth 0).
  JsonObjectText(int indent, int depth) : indent_(indent), depth_(depth) {}

  void add_float(std::string_view key, double v);
  void add_integer(std::string_view key, std::int64_t v);
  void add_number(std::string_view key, double v);  // append_json_number
  void add_string(std::string_view key, std::string_view v);
  // A nested object: fill the returned one (same indent, one level deeper); it is written in place.
  JsonObjectText& add_object(std::string_view key);
  // Keys that are not literals or held by the caller for as long as this object lives.
  std::string_view keep(std::string key) { return owned_keys_.emplace_back(std::move(key)); }

  void write(std::string& out) const;
  // Empties the object for reuse at nesting `depth` (its buffers stay allocated).
  void reset(int depth);

 private:
  struct Field {
    std::string_view key;
    std::size_t begin = 0, end = 0;  // the value's text in values_
    int object = -1;                 // or a nested object (index in nested_)
  };
  Field& field(std::string_view key);  // the field of `key`, emptied (added when new)
  int indent_, depth_;
  std::string values_;
  std::vector<Field> fields_;
  std::deque<JsonObjectText> nested_;
  std::deque<std::string> owned_keys_;
};

// Writes the opening of an array element list at nesting `depth` ("[" then the first element's
// indentation), the separator between elements, and the closing; an empty array is "[]".
void append_array_open(std::string& out, int indent, int depth, bool empty);
void append_array_separator(std::string& out, int indent, int depth);
void append_array_close(std::string& out, int indent, int depth, bool empty);

}  // namespace hwsim
