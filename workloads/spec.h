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

class WorkloadSpec {
 public:
  // Parses "NAME[:KEY=VALUE,...]"; throws UserError(workload) on malformed text or repeated keys.
  static WorkloadSpec parse(const std::string& text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  bool has(const std::string& key) const { return fields_.count(key) != 0; }

  // Typed getters; each marks the key as used. A missing key without default is an error.
  std::int64_t positive_int(const std::string& key) const;
  std::int64_t positive_int(const std::string& key, std::int64_t fallback) const;
  std::int64_t non_negative_int(const std::string& key, std::int64_t fallback) const;
  double positive_real(const std::string& key, double fallback) const;
  DType dtype(const std::string& key, DType fallback) const;
  bool boolean(const std::string& key, bool fallback) const;
  std::string word(const std::string& key, const std::string& fallback) const;

  // Throws if any field was never read: an unknown field, listing `valid` ones.
  void reject_unused(const std::vector<std::string>& valid) const;

  // Fields in key order, as given.
  const std::map<std::string, std::string>& fields() const { return fields_; }

  // A new spec with `defaults` added under the given fields (the given ones win).
  WorkloadSpec with_defaults(const std::map<std::string, std::string>& defaults) const;

 private:
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  const std::string* raw(const std::string& key) const;

  std::string text_;
  std::string name_;
  std::map<std::string, std::string> fields_;
  mutable std::set<std::string> used_;
};

}  // namespace hwsim
