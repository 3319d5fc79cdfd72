// The block-scaled formats fp6 and fp4: appended after int4 (earlier indices unchanged), their
// names and aliases, and their bytes per element with the block scales counted:
//   fp6 (OCP MXFP6): 6 bits + one 1-byte E8M0 scale per 32 elements = 0.75 + 1/32 = 0.78125 B
//   fp4 (NVFP4):     4 bits + one 1-byte E4M3 scale per 16 elements = 0.5  + 1/16 = 0.5625 B
#include <doctest/doctest.h>

#include <algorithm>

#include "ops/dtype.h"

using namespace hwsim;

TEST_CASE("dtype: fp6 and fp4 come after int4, with their block scales in their bytes") {
  CHECK(int(DType::int4) == 6);  // existing indices stay
  CHECK(int(DType::fp6) == 7);
  CHECK(int(DType::fp4) == 8);
  CHECK(kDTypeCount == 9);

  CHECK(bytes_per_element(DType::fp6) == 0.78125);
  CHECK(bytes_per_element(DType::fp4) == 0.5625);
  CHECK(bytes_per_element(DType::int4) == 0.5);  // int4 unchanged (scales not counted)

  CHECK(dtype_name(DType::fp6) == "fp6");
  CHECK(dtype_name(DType::fp4) == "fp4");
  for (const char* alias : {"fp6", "mxfp6", "e3m2", "e2m3"}) CHECK(parse_dtype(alias) == DType::fp6);
  for (const char* alias : {"fp4", "nvfp4", "e2m1"}) CHECK(parse_dtype(alias) == DType::fp4);
  CHECK_FALSE(parse_dtype("fp5").has_value());

  auto names = dtype_names();
  REQUIRE(names.size() == kDTypeCount);
  for (std::size_t i = 0; i < kDTypeCount; ++i) CHECK(names[i] == dtype_name(DType(i)));
}
