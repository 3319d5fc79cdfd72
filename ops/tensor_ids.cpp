#include "ops/tensor_ids.h"

#include <fmt/format.h>
#include <map>
#include <string>

namespace hwsim {

std::vector<TensorIds> tensor_ids(const OpGraph& graph) {
  std::map<std::string, std::int64_t> named;
  auto id_of = [&](const std::string& name) {
    auto [it, inserted] = named.emplace(name, std::int64_t(named.size()));
    return it->second < kMaxTensorIds ? it->second : -1;
  };
  std::vector<TensorIds> ids(boost::num_vertices(graph));
  for (OpVertex v : execution_order(graph)) {
    const Op& op = graph[v];
    ids[v].output = id_of(op.output_tensor.empty() ? fmt::format("#{}", v) : op.output_tensor);
    if (!op.input_tensor.empty()) {
      ids[v].input = id_of(op.input_tensor);
    } else if (boost::in_degree(v, graph) > 0) {
      ids[v].input = ids[boost::source(*boost::in_edges(v, graph).first, graph)].output;
    }
  }
  return ids;
}

}  // namespace hwsim
