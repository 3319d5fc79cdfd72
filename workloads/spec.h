#pragma once
// Workload spec strings: "gemm:M=4096,N=4096,K=4096,dtype=bf16", or a bare preset name
// ("decode_llama8b"). Field access is typed and every mistake is one clear line naming the spec,
// the field and what would be right.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "ops/dtype.h"

namespace hwsim {

// Default bounds of numeric workload fields (see WorkloadSpec's getters).
inline constexpr std::int64_t kMaxSpecWhole = std::int64_t(1) << 40;  // ~1.1e12
inline constexpr double kMinSpecReal = 1e-9, kMaxSpecReal = 1e12;
// A spec is one line of at most this many characters (file names included).
inline constexpr std::size_t kMaxSpecLength = 4096;

class WorkloadSpec {
 public:
  // Parses "NAME[:KEY=VALUE,...]"; throws UserError(workload) on malformed text or repeated keys.
  static WorkloadSpec parse(const std::string& text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  bool has(const std::string& key) const { return fields_.count(key) != 0; }

  // Typed getters; each marks the key as used. A missing key without default is an error.
  // Every numeric field has a valid range, checked here (the one place a field is parsed): whole
  // numbers in [1 or 0, at_most], reals finite in [kMinSpecReal, at_most]. The default upper
  // bounds keep every product of fields inside a 64-bit count and a double; a field that
  // multiplies the work without adding memory (layers, repeat, requests, output tokens) declares
  // a tighter one at its call, so no spec makes a run's time unbounded. Out of range is one line:
  // "workload 'SPEC': FIELD: VALUE is out of range (a whole number between 1 and MAX)".
  std::int64_t positive_int(const std::string& key) const;
  std::int64_t positive_int(const std::string& key, std::int64_t fallback, std::int64_t at_most = kMaxSpecWhole) const;
  std::int64_t non_negative_int(const std::string& key, std::int64_t fallback,
                                std::int64_t at_most = kMaxSpecWhole) const;
  double positive_real(const std::string& key, double fallback, double at_most = kMaxSpecReal) const;
  DType dtype(const std::string& key, DType fallback) const;
  bool boolean(const std::string& key, bool fallback) const;
  std::string word(const std::string& key, const std::string& fallback) const;

  // Throws if any field was never read: an unknown field, listing `valid` ones.
  void reject_unused(const std::vector<std::string>& valid) const;
  // A required field is absent: names a field given instead that misspells it ("contxt: unknown
  // field (did you mean context?)"), else says `key` is missing and what it takes.
  [[noreturn]] void missing(const std::string& key, const std::string& what) const;


  // Fields in key order, as given.
  const std::map<std::string, std::string>& fields() const { return fields_; }

  // A new spec with `defaults` added under the given fields (the given ones win).
  WorkloadSpec with_defaults(const std::map<std::string, std::string>& defaults) const;

 private:
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  std::int64_t whole_in(const std::string& key, std::int64_t fallback, std::int64_t lowest, std::int64_t at_most) const;
  const std::string* raw(const std::string& key) const;

  std::string text_;
  std::string name_;
  std::map<std::string, std::string> fields_;
  mutable std::set<std::string> used_;
};

}  // namespace hwsim
