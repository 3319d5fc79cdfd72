// collective:op=all_reduce,bytes=1GiB,ranks=8[,algo=auto,dtype=bf16] — one collective among `ranks`
// devices, or a sweep over sizes like nccl-tests: bytes=1KiB..1GiB (each size `factor` times the
// last, default 2) or sizes=1KiB+64KiB+1GiB. A plain number is bytes (bytes=1048576), as
// nccl-tests takes them. One step per size, labelled by its size.
#include <fmt/format.h>

#include "sim/did_you_mean.h"
#include "sim/error.h"
#include "sim/units.h"
#include "workloads/workload.h"

namespace hwsim {
namespace {

// The largest sweep: nccl-tests' default 8 B … 128 MiB is 25 sizes.
constexpr std::size_t kMaxSizes = 64;

// A size with a unit (1GiB, 64KiB), or a plain number of bytes as nccl-tests takes them (1048576).
double parse_size(const WorkloadSpec& spec, const std::string& field, const std::string& text) {
  std::string why;
  auto plain = parse_quantity(text);
  auto bytes = plain && plain->dimension == Dimension::none ? std::optional<double>(plain->value)
                                                            : parse_quantity_as(text, Dimension::bytes, &why);
  if (!bytes || *bytes <= 0 || *bytes > 1e15)
    workload_error(fmt::format("workload '{}': {}: '{}' is not a size in bytes ({}; e.g. 1GiB, 64KiB)", spec.text(),
                               field, text, bytes ? "must be > 0 and at most 1 PB" : why));
  return *bytes;
}

std::vector<double> sizes_of(const WorkloadSpec& spec) {
  std::vector<double> sizes;
  if (spec.has("sizes")) {
    std::string list = spec.word("sizes", "");
    for (std::size_t pos = 0; pos <= list.size();) {
      std::size_t plus = list.find('+', pos);
      sizes.push_back(parse_size(spec, "sizes", list.substr(pos, plus == std::string::npos ? std::string::npos : plus - pos)));
      if (plus == std::string::npos) break;
      pos = plus + 1;
    }
  } else {
    std::string text = spec.word("bytes", "");
    if (text.empty()) workload_error(fmt::format("workload '{}': bytes: missing (a size like 1GiB, a sweep like "
                                                 "1KiB..1GiB, or sizes=1KiB+1MiB)", spec.text()));
    std::size_t dots = text.find("..");
    if (dots == std::string::npos) {
      sizes.push_back(parse_size(spec, "bytes", text));
    } else {
      double lo = parse_size(spec, "bytes", text.substr(0, dots)), hi = parse_size(spec, "bytes", text.substr(dots + 2));
      double factor = spec.positive_real("factor", 2);
      if (factor <= 1 || lo > hi)
        workload_error(fmt::format("workload '{}': a sweep needs lo <= hi and factor > 1", spec.text()));
      for (double b = lo; b <= hi * (1 + 1e-12) && sizes.size() <= kMaxSizes; b *= factor) sizes.push_back(b);
    }
  }
  if (sizes.size() > kMaxSizes)
    workload_error(fmt::format("workload '{}': {} sizes; at most {} per run", spec.text(), sizes.size(), kMaxSizes));
  return sizes;
}

Workload build_collective(const WorkloadSpec& spec) {
  std::string name = spec.word("op", "all_reduce");
  auto kind = parse_collective(name);
  if (!kind)
    workload_error(fmt::format("workload '{}': op: unknown collective '{}'{}; known: {}", spec.text(), name,
                               did_you_mean(name, collective_names()), join(collective_names())));
  CollectiveOp c;
  c.kind = *kind;
  c.ranks = spec.positive_int("ranks", 2);
  if (c.ranks < 2) workload_error(fmt::format("workload '{}': ranks: a collective needs at least 2 ranks", spec.text()));
  if (c.ranks > 1000000) workload_error(fmt::format("workload '{}': ranks: {} is out of range (at most 1000000)", spec.text(), c.ranks));
  c.algo = spec.word("algo", "auto");
  c.proto = spec.word("proto", "auto");
  c.dtype = spec.dtype("dtype", DType::fp32);
  // 2 ranks: rank 0 sends to rank 1, as a pipeline stage does; more: each rank to the next
  // (nccl-tests' sendrecv_perf).
  bool pipeline_send = c.kind == CollectiveKind::send_recv && c.ranks == 2;
  c.axis = pipeline_send ? ParallelAxis::pp : ParallelAxis::world;
  std::vector<double> sizes = sizes_of(spec);
  spec.reject_unused({"op", "bytes", "sizes", "factor", "ranks", "algo", "proto", "dtype"});
  Workload w;
  if (pipeline_send) w.parallel.pp = 2;
  else w.parallel.dp = c.ranks;
  for (double b : sizes) {
    c.bytes = b;
    WorkloadStep step{format_quantity(b, Dimension::bytes), {}};
    Op op{std::string(collective_name(c.kind)), "collective", c};
    add_op(step.graph, std::move(op));
    w.steps.push_back(std::move(step));
  }
  return w;
}

HWSIM_REGISTER_WORKLOAD("collective",
                        "a collective among devices of a --system: op=all_reduce|all_gather|reduce_scatter|all_to_all|"
                        "broadcast|send_recv (2 ranks: 0 sends to 1; more: each to the next), bytes=SIZE (nccl-tests size) or a sweep bytes=1KiB..1GiB[,factor=2] or "
                        "sizes=A+B+..., ranks=2, algo=auto|ring|tree|direct|hierarchical|torus|nvls, proto=auto|LL|LL128|Simple, dtype=fp32",
                        build_collective);

}  // namespace
}  // namespace hwsim
