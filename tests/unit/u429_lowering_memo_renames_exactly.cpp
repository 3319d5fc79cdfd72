// The lowering memo (models/gpu/tile/lowering_memo.h): an op's kernels taken from the canonical
// lowering of an op alike, its identities put back, are the kernels lowering the op itself gives,
// bit for bit (every CTA, operand, figure, name), with the same renamed digest and tensor
// numbering; and the memo lowers each (class, shape, identity pattern) once.
#include <doctest/doctest.h>

#include <cstring>
#include <set>

#include "models/gpu/tile/kernel_names.h"
#include "models/gpu/tile/lowering_memo.h"
#include "models/gpu/tile/tile_step_lowering.h"
#include "ops/device.h"
#include "run/program.h"
#include "tests/fixtures/test_support.h"
#include "workloads/workload.h"

using namespace hwsim;
using hwsim::test::chip_file;

namespace {

void check_same(const PackedKernel& direct, const PackedKernel& renamed) {
  CHECK(direct.kernel.name == renamed.kernel.name);
  CHECK(direct.kernel.config == renamed.kernel.config);
  CHECK(direct.kernel.flops == renamed.kernel.flops);
  CHECK(direct.kernel.min_bytes == renamed.kernel.min_bytes);
  REQUIRE(direct.ctas.size() == renamed.ctas.size());
  CHECK(std::memcmp(direct.ctas.data(), renamed.ctas.data(), direct.ctas.size() * sizeof(PackedKernel::Cta)) == 0);
  REQUIRE(direct.operands.size() == renamed.operands.size());
  bool operands_equal = true;
  for (std::size_t i = 0; i < direct.operands.size(); ++i) {
    const OperandRead &a = direct.operands[i], &b = renamed.operands[i];
    operands_equal = operands_equal && a.object == b.object && a.bytes == b.bytes && a.offset == b.offset;
  }
  CHECK(operands_equal);
}

// Every op of `spec`'s first step on `chip`: direct lowering against the memo's.
std::size_t check_step(const std::string& chip_name, const std::string& spec) {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file(chip_name), {}));
  Workload w = WorkloadCatalog::build(spec);
  Program program = make_program(w.steps.front(), "eager");
  const StepProgram& step = program.step;
  LoweringMemo memo;
  for (std::size_t i = 0; i < step.order.size(); ++i) {
    OpVertex v = step.order[i];
    std::vector<PackedKernel> direct = pack_kernels(lower_tile_op(step, i, chip), chip);
    IdentityRenaming renaming;
    const auto& canonical = memo.lowered((*step.graph)[v], step.tensors[v], op_object_base(i), chip, renaming);
    REQUIRE(canonical.held);
    REQUIRE(direct.size() == canonical.kernels.size());
    for (std::size_t k = 0; k < direct.size(); ++k) {
      INFO((*step.graph)[v].name, " kernel ", k);
      PackedKernel renamed = renaming.kernel(canonical.kernels[k]);
      check_same(direct[k], renamed);
      KernelSummary summary = renaming.summary(canonical.summaries[k]);
      const KernelNames& names = kernel_names(direct[k]);
      CHECK(summary.names->shape == names.shape);
      CHECK(summary.names->tensors == names.tensors);
      CHECK(summary.names->by_tensor == names.by_tensor);
      CHECK(summary.kernel.name == direct[k].kernel.name);
      CHECK(summary.ctas == direct[k].ctas.size());
    }
  }
  return step.order.size();
}

}  // namespace

TEST_CASE("lowering memo: renamed kernels are the op's own lowering, bit for bit") {
  CHECK(check_step("h100", "decode:model=llama3_8b,batch=8,context=300,layers=3") > 20);
  CHECK(check_step("h100", "prefill:model=llama3_8b,batch=1,prompt=200,layers=2") > 20);
  CHECK(check_step("h100", "decode:model=llama3_8b,batch=4,context=128,layers=2,weights=int4") > 10);
  CHECK(check_step("mi300x", "decode:model=llama3_8b,batch=2,context=64,layers=2") > 10);
}

TEST_CASE("lowering memo: one lowering per shape; layers alike share it") {
  GpuChip chip = GpuChip::from_config(load_chip(chip_file("h100"), {}));
  Workload w = WorkloadCatalog::build("decode:model=llama3_8b,batch=8,context=300,layers=4");
  Program program = make_program(w.steps.front(), "eager");
  const StepProgram& step = program.step;
  LoweringMemo memo;
  std::set<const LoweringMemo::Lowered*> distinct;
  for (std::size_t i = 0; i < step.order.size(); ++i) {
    IdentityRenaming renaming;
    OpVertex v = step.order[i];
    distinct.insert(&memo.lowered((*step.graph)[v], step.tensors[v], op_object_base(i), chip, renaming));
  }
  // Four layers alike: at most a layer's ops and the few outside the layers are lowered.
  CHECK(distinct.size() * 3 < step.order.size());
}
