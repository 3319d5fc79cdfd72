// Bad speculative, preemption and layout options of serve: one stderr line naming the field and
// what would do, nothing on stdout, exit 4.
#include <doctest/doctest.h>

#include "tests/integration/i37_serve_support.h"

using namespace hwsim::test;

namespace {
const std::string kServe = "-w serve:model=llama3_8b,requests=2,";
}  // namespace

TEST_CASE("cli serve: k <= 0 exits 4") {
  one_line(run_hwsim("--chip h100 " + kServe + "draft=llama3_2_1b,k=0"),
           "k: '0': the draft tokens proposed per step must be a whole number >= 1");
  one_line(run_hwsim("--chip h100 " + kServe + "draft=llama3_2_1b,k=-2"), "k: '-2'");
}

TEST_CASE("cli serve: an acceptance rate of 0, or above 1, exits 4") {
  for (const char* a : {"0", "1.5", "-0.2", "x"})
    one_line(run_hwsim("--chip h100 " + kServe + "draft=llama3_2_1b,accept=" + a),
             std::string("accept: '") + a + "' is not in (0, 1]");
}

TEST_CASE("cli serve: an unknown draft model exits 4") {
  one_line(run_hwsim("--chip h100 " + kServe + "draft=llama3_1b"), "draft: model 'llama3_1b' unknown");
}

TEST_CASE("cli serve: a draft of another tokenizer exits 4") {
  one_line(run_hwsim("--chip h100 " + kServe + "draft=gpt2"),
           "gpt2 (tokenizer gpt2, vocabulary 50257) cannot draft for llama3_8b (tokenizer llama3, vocabulary 128256)");
  // Mistral and Llama 2 both have 32000 tokens, but not the same ones.
  one_line(run_hwsim("--chip h100 -w serve:model=mistral_7b,requests=2,draft=llama2_7b"),
           "llama2_7b (tokenizer llama2, vocabulary 32000) cannot draft for mistral_7b (tokenizer mistral");
}

TEST_CASE("cli serve: draft options without a draft exit 4") {
  one_line(run_hwsim("--chip h100 " + kServe + "k=4"), "k: needs a draft model (draft=MODEL");
}

TEST_CASE("cli serve: several devices on one chip, or more than the system has, exit 4") {
  one_line(run_hwsim("--chip h100 " + kServe + "tp=2"), "tp=2 × dp=1 needs 2 devices: give a system of chips");
  one_line(run_hwsim("--system h100x2 " + kServe + "dp=4"), "tp=1 × dp=4 needs 4 devices; system h100x2 has 2");
  one_line(run_hwsim("--system h100x2 " + kServe + "disaggregate=1P1D,decode_tp=2"),
           "disaggregate=1P1D with prefill_tp=1 and decode_tp=2 needs 3 devices; system h100x2 has 2");
  one_line(run_hwsim("--system h100x2 " + kServe + "disaggregate=1P"), "disaggregate: '1P' is not xPyD");
  one_line(run_hwsim("--system h100x2 " + kServe + "tp=3"), "tp=3 does not divide the 32 query heads");
}

TEST_CASE("cli serve: swap on a chip without a host link, and a bad swap space, exit 4") {
  one_line(run_hwsim("--chip h100 --set host_link.bandwidth=0B/s " + kServe + "preemption=swap"),
           "preemption=swap moves KV blocks over the host link, and H100 SXM5 80GB describes none");
  one_line(run_hwsim("--chip h100 " + kServe + "preemption=swap,swap_space=lots"), "swap_space: 'lots' is not a size");
  one_line(run_hwsim("--chip h100 " + kServe + "swap_space=1GiB"), "swap_space: only with preemption=swap");
}
