#pragma once
// The report of a run on a microcontroller (RunResult::inference present): what its user asks —
// latency per inference, inferences/s, MACs per cycle, energy per inference, where the bytes live,
// which ops fell back from the NPU to the CPU — in text and JSON. Formats only.
#include <iosfwd>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace hwsim {

// The body of the text report (after its chip and workload lines).
void print_inference_report(std::ostream& out, const RunResult& r);
// result.inference; null when absent.
nlohmann::json inference_json(const RunResult& r);

}  // namespace hwsim
