#pragma once
// The bytes each of a machine's memory levels (resources of its flow network) carries over one op:
// built when the op starts, `since` read when it ends, both at the simulated time given (the network
// advanced to it first); in the levels' order, as a record's `traffic` lists them.
#include <cstddef>
#include <vector>

#include "sim/engine/flow_network.h"

namespace hwsim {

class TrafficWindow {
 public:
  TrafficWindow(FlowNetwork& net, const std::vector<ResourceId>& levels, double now) : levels_(levels) {
    net.advance_to(now);
    for (ResourceId r : levels_) before_.push_back(net.bytes_through(r));
  }

  std::vector<double> since(FlowNetwork& net, double now) const {
    net.advance_to(now);
    std::vector<double> bytes;
    for (std::size_t i = 0; i < levels_.size(); ++i) bytes.push_back(net.bytes_through(levels_[i]) - before_[i]);
    return bytes;
  }

 private:
  std::vector<ResourceId> levels_;
  std::vector<double> before_;
};

}  // namespace hwsim
