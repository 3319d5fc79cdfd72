#pragma once
// Where `hwsim validate` runs a record: the command line's --chip or --system (with its --set), or,
// when neither is given, the record's own `chip` field (a shipped chip's bare name: configs/NAME.toml)
// with the record's `set` overrides ("key=value" strings) before the command line's. Records of
// several devices need --system (a record's `system` field is often its submission's name).
// And how a record counts: `role` "fit" (it fitted a parameter: predicted and
// reported apart, never judged) or "judge" (the default).
#include <map>
#include <string>
#include <vector>

#include "app/validate/validate.h"

namespace hwsim {

struct ValidateTarget {
  std::string chip, system;            // one of them set (system: only from --system)
  std::vector<std::string> overrides;  // the record's `set`, then the command line's --set
  std::string label;                   // the chip or system name, for reports
  bool from_record = false;            // named by the record (its errors name the record's line)
  bool empty() const { return chip.empty() && system.empty(); }
};

// The record's target; empty when neither the command line nor the record names one. A malformed
// `chip` or `set` field is one "FILE:LINE: KEY: ..." error.
ValidateTarget target_of(const Measurement& m, const ValidationOptions& options);

// "fit" or "judge"; any other `role` is one "FILE:LINE: role: ..." error.
std::string role_of(const Measurement& m);

// The device kind of each target, loaded once (a chip or system a record names that does not load is
// that record's file:line error).
class TargetKinds {
 public:
  const std::string& kind(const ValidateTarget& target, const Measurement& m);

 private:
  std::map<std::string, std::string> kinds_;  // target key → device kind
};

}  // namespace hwsim
