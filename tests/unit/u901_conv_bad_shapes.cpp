// check_conv refuses impossible convolutions with one line naming the op and what would be right.
#include <doctest/doctest.h>

#include "ops/op.h"
#include "sim/error.h"

using namespace hwsim;

TEST_CASE("conv: a kernel larger than its padded input, a zero stride, bad groups are one-line errors") {
  ConvOp c;
  c.in_h = c.in_w = 4, c.in_c = 8, c.out_c = 8, c.kernel_h = c.kernel_w = 7;
  try {
    check_conv(c, "L0.conv");
    FAIL("expected an error");
  } catch (const UserError& e) {
    CHECK(std::string(e.what()) == "L0.conv: kernel 7x7 is larger than its padded input 4x4 (input 4x4); use a kernel "
                                   "of at most 4x4 or padding=same");
  }
  ConvOp z = c;
  z.kernel_h = z.kernel_w = 3;
  z.stride_h = 0;
  CHECK_THROWS_WITH_AS(check_conv(z, "x"), "x: stride 0x1 must be >= 1", UserError);
  ConvOp g = z;
  g.stride_h = 1;
  g.groups = 3;
  CHECK_THROWS_WITH_AS(check_conv(g, "x"), "x: groups 3 must divide in_c 8 and out_c 8", UserError);
  ConvOp same = c;
  set_padding(same, ConvPadding::same);  // padded to 4 + 6: the 7x7 kernel fits
  CHECK_NOTHROW(check_conv(same, "x"));
}
