// Self-registration survives linking: models, workloads and measurement kinds registered in other
// object files are present in a binary that never names them.
#include <doctest/doctest.h>

#include <algorithm>

#include "ops/device.h"
#include "sim/config/param.h"
#include "sim/registry.h"
#include "sim/measurement/measurement.h"
#include "workloads/workload.h"

using namespace hwsim;

TEST_CASE("registry: registrations survive linking") {
  auto kinds = Registry<Device>::names();
  CHECK(std::find(kinds.begin(), kinds.end(), "gpu") != kinds.end());
  CHECK(WorkloadCatalog::entries().count("gemm") == 1);
  CHECK(MeasurementKinds::adapters().count("gemm") == 1);
  CHECK(ParamCatalog::instance().find("memory.hbm.bandwidth") != nullptr);
}
