#include "workloads/serve/request_files.h"

#include <fmt/format.h>

#include <array>
#include <cmath>
#include <fstream>

#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {
namespace {

// The lengths (and arrival), then the optional columns (prefix sharing, priority).
constexpr std::size_t kRequired = 3;
constexpr std::array<const char*, 6> kFields = {"arrival_s",    "prompt_tokens",  "output_tokens",
                                                "prefix_group", "prefix_tokens", "priority"};
// The most a priority or a prefix group may be (either way from 0), as a spec's whole numbers stay bounded.
constexpr double kMaxTag = 1e9;
// At most this many requests in a file, as requests= allows (each is simulated).
constexpr std::size_t kMaxFileRequests = 1'000'000;

[[noreturn]] void file_fail(const std::string& path, std::size_t line, const std::string& field,
                            const std::string& what) {
  workload_error(fmt::format("{}:{}: {}: {}", path, line, field, what));
}

// The value after "KEY": in a flat JSON object line (numbers only); "" when the key is absent.
std::string json_value(const std::string& text, const std::string& key, const std::string& path, std::size_t line) {
  auto at = text.find("\"" + key + "\"");
  if (at == std::string::npos) return {};
  auto colon = text.find(':', at);
  if (colon == std::string::npos) file_fail(path, line, key, "no ':' after the key");
  auto end = text.find_first_of(",}", colon + 1);
  std::string v = text.substr(colon + 1, end == std::string::npos ? std::string::npos : end - colon - 1);
  v.erase(0, v.find_first_not_of(" \t"));
  v.erase(v.find_last_not_of(" \t\r") + 1);
  return v;
}

std::vector<std::string> csv_cells(const std::string& text) {
  std::vector<std::string> cells;
  std::size_t start = 0;
  for (;;) {
    auto comma = text.find(',', start);
    std::string c = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    c.erase(0, c.find_first_not_of(" \t"));
    c.erase(c.find_last_not_of(" \t") + 1);
    cells.push_back(c);
    if (comma == std::string::npos) return cells;
    start = comma + 1;
  }
}

double file_number(const std::string& v, const std::string& path, std::size_t line, const std::string& field,
                   bool whole_number) {
  auto number = whole_text_number(v);
  if (!number) file_fail(path, line, field, fmt::format("'{}' is not a number", v));
  const double x = *number;
  if (whole_number && (x < 1 || x != std::floor(x) || x > 1e9))
    file_fail(path, line, field, fmt::format("'{}' is not a positive whole number of tokens", v));
  if (!whole_number && x < 0) file_fail(path, line, field, fmt::format("'{}' is negative (seconds from the start)", v));
  return x;
}

// A whole number in [lo, kMaxTag] in an optional column.
std::int64_t file_tag(const std::string& v, const std::string& path, std::size_t line, const std::string& field,
                      double lo, const char* meaning) {
  auto number = whole_text_number(v);
  if (!number || *number != std::floor(*number) || *number < lo || *number > kMaxTag)
    file_fail(path, line, field, fmt::format("'{}' is not {} (a whole number from {:g} to {:g})", v, meaning, lo, kMaxTag));
  return std::int64_t(*number);
}

// The optional columns' values of one request (v in kFields order; "" where absent).
void read_tags(const std::array<std::string, 6>& v, const std::string& path, std::size_t line, ServeRequest& r) {
  const bool group = !v[3].empty(), tokens = !v[4].empty();
  if (group != tokens)
    file_fail(path, line, group ? kFields[4] : kFields[3],
              fmt::format("missing: {} and {} go together (the request's first prefix_tokens tokens are those of "
                          "group prefix_group)", kFields[3], kFields[4]));
  if (group) {
    r.prefix_group = file_tag(v[3], path, line, kFields[3], 0, "a prefix group");
    r.prefix_tokens = file_tag(v[4], path, line, kFields[4], 0, "a number of tokens");
    if (r.prefix_tokens > r.prompt)
      file_fail(path, line, kFields[4], fmt::format("{} shared tokens is more than the prompt's {} (at most "
                                                    "prompt_tokens)", r.prefix_tokens, r.prompt));
  }
  if (!v[5].empty()) r.priority = file_tag(v[5], path, line, kFields[5], -kMaxTag, "a priority");
}

// Each request line's fields (kFields order; arrival "" when not needed).
std::vector<ServeRequest> read_requests(const std::string& path, bool arrivals, const char* what,
                                        RequestFileColumns* columns) {
  check_input_file(path, what);  // a regular file of bounded size (sim/input_file.h)
  std::ifstream in(path);
  if (!in) workload_error(fmt::format("{} '{}': cannot be read", what, path));
  const std::size_t first = arrivals ? 0 : 1;  // the fields needed: arrival_s only for a trace
  const std::string needed = arrivals ? "arrival_s, prompt_tokens and output_tokens" : "prompt_tokens and output_tokens";
  std::vector<ServeRequest> out;
  std::array<int, kFields.size()> column = {-1, -1, -1, -1, -1, -1};  // a CSV's column of each field
  RequestFileColumns seen;
  bool header = false;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    if (!text.empty() && text.back() == '\r') text.pop_back();
    auto lead = text.find_first_not_of(" \t");
    if (lead == std::string::npos || text[lead] == '#') continue;
    std::array<std::string, kFields.size()> v;
    if (text[lead] == '{') {
      for (std::size_t i = first; i < kRequired; ++i)
        if ((v[i] = json_value(text, kFields[i], path, line)).empty()) file_fail(path, line, kFields[i], "missing");
      for (std::size_t i = kRequired; i < kFields.size(); ++i) v[i] = json_value(text, kFields[i], path, line);
    } else {
      std::vector<std::string> cells = csv_cells(text);
      if (!header) {
        for (std::size_t c = 0; c < cells.size(); ++c)
          for (std::size_t i = 0; i < kFields.size(); ++i)
            if (cells[c] == kFields[i]) column[i] = int(c);
        for (std::size_t i = first; i < kRequired; ++i)
          if (column[i] < 0) file_fail(path, line, "header", fmt::format("a CSV {} starts with a header naming {}", what, needed));
        header = true;
        continue;
      }
      for (std::size_t i = first; i < kFields.size(); ++i) {
        if (column[i] < 0) continue;  // an optional column the file does not have
        if (std::size_t(column[i]) >= cells.size())
          file_fail(path, line, kFields[i], fmt::format("missing ({} fields, the header has more)", cells.size()));
        v[i] = cells[std::size_t(column[i])];
      }
    }
    if (out.size() == kMaxFileRequests)
      file_fail(path, line, "line", fmt::format("more than {} requests (the most a serve run takes, as requests=): "
                                                "split the file", kMaxFileRequests));
    ServeRequest r;
    r.id = std::int64_t(out.size());
    r.arrival = arrivals ? file_number(v[0], path, line, kFields[0], false) : 0;
    r.prompt = std::int64_t(file_number(v[1], path, line, kFields[1], true));
    r.output = std::int64_t(file_number(v[2], path, line, kFields[2], true));
    read_tags(v, path, line, r);
    seen.prefix = seen.prefix || !v[3].empty();
    seen.priority = seen.priority || !v[5].empty();
    out.push_back(r);
  }
  if (out.empty()) workload_error(fmt::format("{} '{}': no requests", what, path));
  if (columns) *columns = seen;
  return out;
}

}  // namespace

std::vector<ServeRequest> read_serve_trace(const std::string& path, RequestFileColumns* columns) {
  return read_requests(path, true, "trace", columns);
}

std::vector<ServeRequest> read_serve_dataset(const std::string& path, RequestFileColumns* columns) {
  return read_requests(path, false, "dataset", columns);
}

std::vector<ServeRequest> sample_dataset(const std::vector<ServeRequest>& pairs, std::int64_t n, double rate,
                                         std::uint64_t seed) {
  ServeRandom rng(seed);
  std::vector<std::size_t> order;
  std::vector<ServeRequest> out;
  double now = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    if (order.empty()) {  // a fresh shuffle (Fisher–Yates), taken from the back
      for (std::size_t k = pairs.size(); k-- > 0;) order.push_back(k);
      for (std::size_t k = order.size(); k > 1; --k)
        std::swap(order[k - 1], order[std::size_t(rng.uniform_int(0, std::int64_t(k) - 1))]);
    }
    ServeRequest r = pairs[order.back()];
    order.pop_back();
    r.id = i;
    if (std::isfinite(rate)) now += rng.exponential(rate);
    r.arrival = now;
    out.push_back(r);
  }
  return out;
}

}  // namespace hwsim
