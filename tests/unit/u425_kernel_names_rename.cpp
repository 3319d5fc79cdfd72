// Kernels and caches renamed for kernel replay (models/gpu/tile/kernel_names.h): two kernels that
// differ only in which tensors they touch (layer 7's and layer 8's GEMM) have one digest, a kernel
// that differs in any figure another; caches holding the same pattern of objects rename to the same
// state, and the names put back give the caches' own objects (for a kernel alike, the objects it
// maps to); a state after a kernel renames like the state before it.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "models/gpu/tile/kernel_names.h"

using namespace hwsim;

namespace {

std::int64_t block(std::int64_t tensor, std::int64_t b) { return (tensor << 24) + b; }

// Reads 4 blocks of `a` and one op object, writes 2 blocks of `out`, in 2 CTAs.
PackedKernel kernel(std::int64_t a, std::int64_t out, std::int64_t op_object, double bytes = 65536) {
  Kernel k;
  k.name = fmt::format("L{}.gemm", a);
  k.op_class = "gemm";
  k.flops = 1e9;
  for (int c = 0; c < 2; ++c) {
    k.ctas.open(5e8);
    k.ctas.read({block(a, 2 * c), bytes});
    k.ctas.read({block(a, 2 * c + 1), bytes});
    k.ctas.read({op_object, 4096});
    k.ctas.write({block(out, c), bytes});
  }
  return PackedKernel::pack(std::move(k));
}

// Caches after touching `mine` (the kernel's input) and `other` (a tensor it does not use).
PartitionedCaches::State caches(std::int64_t mine, std::int64_t other) {
  PartitionedCaches c(1, 1 << 20, 0);
  c.read(0, block(other, 3), 65536, 0);
  c.write(0, block(mine, 1), 65536, 0);
  c.read(0, block(other, 4), 1000, 24);
  return c.state();
}

}  // namespace

TEST_CASE("kernel names: kernels alike but for their tensors share a digest; any figure tells them apart") {
  std::int64_t op7 = (std::int64_t(7) << 40) + 5, op8 = (std::int64_t(8) << 40) + 5;
  PackedKernel l7 = kernel(10, 11, op7), l8 = kernel(20, 21, op8);
  const KernelNames& n7 = kernel_names(l7);
  const KernelNames& n8 = kernel_names(l8);
  CHECK(n7.shape == n8.shape);
  CHECK(n7.tensors == std::vector<std::int64_t>{10, op7, 11});
  CHECK(n8.tensors == std::vector<std::int64_t>{20, op8, 21});
  CHECK(n8.find(op8) == 1);
  CHECK(n8.find(10) == -1);
  CHECK(kernel_names(kernel(20, 21, op8, 32768)).shape != n8.shape);  // other bytes
  CHECK(kernel_names(kernel(20, 20, op8)).shape != n8.shape);         // writes its input
  PackedKernel heavier = kernel(20, 21, op8);
  heavier.kernel.flops = 2e9;
  CHECK(kernel_names(heavier).shape != n8.shape);
}

TEST_CASE("kernel names: caches of one pattern rename alike, and the names come back") {
  PackedKernel l7 = kernel(10, 11, 1), l8 = kernel(20, 21, 2);
  const KernelNames& n7 = kernel_names(l7);
  const KernelNames& n8 = kernel_names(l8);
  PartitionedCaches::State s7 = caches(10, 99), s8 = caches(20, 77);
  RenamedState r7 = rename_state(s7, n7), r8 = rename_state(s8, n8);
  PartitionedCaches::State c7, c8;
  REQUIRE(rename_like(s7, n7, r7, c7));
  REQUIRE(rename_like(s8, n8, r8, c8));
  CHECK(c7 == c8);
  CHECK(!(c7 == s7));
  CHECK(r7.digest == r8.digest);
  CHECK(r7.others == std::vector<std::int64_t>{99});
  CHECK(r8.others == std::vector<std::int64_t>{77});
  CHECK(restore_names(c7, n8, r8.others) == s8);
  CHECK(restore_names(c8, n7, r7.others) == s7);
  // Another pattern (the other tensor held first) is another state.
  PartitionedCaches c(1, 1 << 20, 0);
  c.write(0, block(20, 1), 65536, 0);
  c.read(0, block(77, 3), 65536, 0);
  c.read(0, block(77, 4), 1000, 24);
  CHECK(!(rename_state(c.state(), n8).digest == r8.digest));
}

TEST_CASE("kernel names: the state after a kernel renames like the one before; a stranger is refused") {
  PackedKernel l8 = kernel(20, 21, 2);
  const KernelNames& n8 = kernel_names(l8);
  PartitionedCaches c(1, 1 << 20, 0);
  c.read(0, block(77, 3), 65536, 0);
  RenamedState before = rename_state(c.state(), n8);
  c.write(0, block(21, 0), 65536, 0);  // what the kernel writes
  PartitionedCaches::State renamed;
  REQUIRE(rename_like(c.state(), n8, before, renamed));
  CHECK(restore_names(renamed, n8, before.others) == c.state());
  c.read(0, block(55, 0), 65536, 0);  // neither the kernel's nor held before
  CHECK(!rename_like(c.state(), n8, before, renamed));
}

TEST_CASE("kernel names: a state renamed for one kernel renames for the next as the state itself does") {
  // The caches after l8 (20 -> 21) hold 21, 20 and 77; the next kernel reads 21 and writes 30.
  PackedKernel l8 = kernel(20, 21, std::int64_t(8) << 40), next = kernel(21, 30, std::int64_t(9) << 40);
  const KernelNames& n8 = kernel_names(l8);
  const KernelNames& nn = kernel_names(next);
  PartitionedCaches c(1, 1 << 20, 0);
  c.read(0, block(77, 3), 65536, 0);
  c.read(0, std::int64_t(8) << 40, 4096, 0);  // l8's op object
  c.read(0, block(20, 1), 65536, 0);
  c.write(0, block(21, 0), 65536, 0);
  RenamedState before = rename_state(c.state(), n8);
  PartitionedCaches::State canonical;
  REQUIRE(rename_like(c.state(), n8, before, canonical));
  std::vector<std::int64_t> codes;
  for (std::int64_t t : nn.tensors) codes.push_back(code_of(t, n8, before.others));
  CHECK(codes == std::vector<std::int64_t>{2 * 2, -1, -1});  // 21 is l8's third tensor; the rest are new
  RenamedState linked = rename_linked(canonical, codes), direct = rename_state(c.state(), nn);
  CHECK(linked.digest == direct.digest);
  REQUIRE(linked.others.size() == direct.others.size());
  for (std::size_t j = 0; j < linked.others.size(); ++j)
    CHECK(tensor_of_code(linked.others[j], n8, before.others) == direct.others[j]);
}
