#pragma once
// The fuzz targets' bodies (fuzz/README.md): one function per input surface, taking the bytes a
// fuzzer made. Each feeds them to the production parser exactly as the CLI would and checks the
// contract every input must meet: it is accepted, or refused with ONE UserError line. Anything
// else — a crash, a sanitizer report, another exception (the CLI's "internal error"), a
// multi-line error, an accepted value outside its declared range — aborts, so libFuzzer reports
// it. The same functions replay the seed corpora and every past finding in the unit tests
// (tests/unit/u13x), so a finding, once fixed, stays a test.
#include <cstddef>
#include <cstdint>
#include <string>

namespace hwsim::fuzz {

void units(const std::uint8_t* data, std::size_t size);        // "3.35 TB/s"
void config(const std::uint8_t* data, std::size_t size);       // chip or system TOML, then --set lines
void workload_spec(const std::uint8_t* data, std::size_t size);  // "gemm:M=..."
void kernel(const std::uint8_t* data, std::size_t size);       // .hwk program
void measurements(const std::uint8_t* data, std::size_t size);  // validate's JSON Lines
void sweep_file(const std::uint8_t* data, std::size_t size);    // a sweep file (TOML)
void serve_trace(const std::uint8_t* data, std::size_t size);   // a serve trace or dataset (CSV/JSONL)
void chakra(const std::uint8_t* data, std::size_t size);        // a Chakra trace (jsonized ET)
void tiny_model(const std::uint8_t* data, std::size_t size);    // a TinyML model file (TOML)

// The target of a name ("units", "config", ...); nullptr when unknown.
using Target = void (*)(const std::uint8_t*, std::size_t);
Target target_named(const std::string& name);

}  // namespace hwsim::fuzz
