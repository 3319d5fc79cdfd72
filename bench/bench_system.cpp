// Benchmark: wall time and peak memory of systems of chips (models/cluster), each point in a fresh
// process (SystemC elaborates once per process). Goals: an 8-GPU all-reduce sweep of 21 sizes on
// dgx_h100 ≤ 1 s, a 1 GiB all-reduce over 1024 GPUs of h100_cluster ≤ 1 s, decode_llama70b with
// tp=8 on dgx_h100 ≤ 1 s; a 1 GiB all-reduce over 100,000 GPUs (12,500 nodes) simulated, not
// refused; a 100,000-chip h100_cluster loads and routes in bounded memory (plain
// C++: build_topology and route(), no SystemC). Prints figures; never fails on speed.
//   build/bench/bench_system [nodes of the routing point, default 12500]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "ops/device.h"
#include "run/simulate.h"
#include "models/cluster/collective_engine.h"
#include "models/cluster/routing.h"
#include "models/cluster/system_spec.h"
#include "models/cluster/topology.h"
#include "sim/config/config.h"
#include "sim/engine/isolated_run.h"
#include "workloads/workload.h"

namespace {

using namespace hwsim;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point begin) { return std::chrono::duration<double>(Clock::now() - begin).count(); }

double peak_rss_mib() {
  struct rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024.0;
}

// CPU seconds of this process (user + system): wall time on a busy host overstates the work.
double cpu_seconds() {
  struct rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// One workload on a system, in a child: wall (workload built, topology built, simulated), peak
// RSS, records, simulated seconds; then one line per collective record: bytes, algorithm and
// protocol, seconds, busbw.
struct SystemRun {
  double wall_seconds = 0, cpu_seconds = 0, peak_rss_mib = 0, simulated_seconds = 0;
  std::size_t records = 0;
  std::vector<std::string> collectives;
};

SystemRun time_system(const std::string& system, const std::vector<std::string>& sets, const std::string& spec) {
  std::string text = run_isolated([&]() {
    Config sys = load_system_config(system, sets);
    Config chip = load_chip(sys.text("system.chip"), {});
    auto begin = Clock::now();
    double cpu = cpu_seconds();
    Workload workload = WorkloadCatalog::build(spec);
    RunResult result = simulate_system(sys, chip, workload);
    double wall = seconds_since(begin);
    cpu = cpu_seconds() - cpu;
    std::size_t records = 0;
    std::string lines;
    for (const auto& s : result.steps)
      for (const auto& k : s.records) {
        ++records;
        if (k.schema != collective_schema()) continue;
        std::string algo = k.config.substr(0, k.config.find(" ×"));
        lines += fmt::format("\n{:>10} {:<22} {:>12.3f} {:>10.2f}", s.label, algo, k.seconds * 1e6,
                             k.detail("busbw") / 1e9);
      }
    return fmt::format("{:.17g} {:.17g} {:.17g} {} {:.17g}", wall, cpu, peak_rss_mib(), records, result.seconds) + lines;
  });
  SystemRun r;
  std::istringstream in(text);
  std::string first;
  std::getline(in, first);
  std::sscanf(first.c_str(), "%lf %lf %lf %zu %lf", &r.wall_seconds, &r.cpu_seconds, &r.peak_rss_mib, &r.records,
              &r.simulated_seconds);
  for (std::string line; std::getline(in, line);) r.collectives.push_back(line);
  return r;
}

void print_system_point(const char* system, const std::string& spec, const SystemRun& r, bool every_collective) {
  fmt::print("{:<13} {:<58} {:>8.3f} {:>8.3f} {:>8} {:>14.1f} {:>12.6f}\n", system, spec, r.wall_seconds,
             r.cpu_seconds, r.records, r.peak_rss_mib, r.simulated_seconds);
  if (r.collectives.empty()) return;
  fmt::print("  {:>10} {:<22} {:>12} {:>10}\n", "bytes", "algorithm", "simulated us", "busbw GB/s");
  if (every_collective || r.collectives.size() == 1)
    for (const auto& line : r.collectives) fmt::print("  {}\n", line.substr(1));
  else
    fmt::print("  ({} collectives)\n", r.collectives.size());
}

// Loads a system, builds its topology and routes a sample of device pairs, in a child: plain C++.
void route_point(std::int64_t nodes) {
  std::string text = run_isolated([&]() {
    auto begin = Clock::now();
    Config sys = load_system_config("h100_cluster", {fmt::format("system.nodes={}", nodes)});
    SystemSpec spec = SystemSpec::from_config(sys);
    Topology topo = build_topology(spec);
    double build = seconds_since(begin), rss_built = peak_rss_mib();
    const std::int64_t n = topo.devices(), per = spec.devices_per_node, samples = 10000;
    // Cross-node: device d to (d + 8·k) % N, d spread over the system, k over every distance.
    // Intra-node: d to another device of its node.
    double cross_s = 0, intra_s = 0, cross_cpu = 0, intra_cpu = 0, hops_cross = 0, hops_intra = 0, demands = 0, min_bw = 1e300;
    std::int64_t network = 0;
    for (int pass = 0; pass < 2; ++pass) {
      auto t0 = Clock::now();
      double c0 = cpu_seconds();
      for (std::int64_t i = 0; i < samples; ++i) {
        std::int64_t d = i * n / samples, to;
        if (pass == 0) {
          std::int64_t k = 1 + (i * 7919) % std::max<std::int64_t>(1, spec.nodes - 1);
          to = (d + per * k) % n;
        } else {
          to = d / per * per + (d % per + 1 + i % (per - 1)) % per;
        }
        Route r = route(topo, d, to);
        (pass == 0 ? hops_cross : hops_intra) += r.hops;
        network += r.crosses_network;
        demands += double(r.demands.size());
        min_bw = std::min(min_bw, r.bandwidth);
      }
      (pass == 0 ? cross_s : intra_s) = seconds_since(t0);
      (pass == 0 ? cross_cpu : intra_cpu) = cpu_seconds() - c0;
    }
    return fmt::format(
        "{:.17g} {:.17g} {} {} {} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {:.17g} {} {:.17g} {:.17g} {:.17g} {:.17g}", build,
        rss_built, n, boost::num_vertices(topo.graph()), topo.edges(), cross_s, intra_s, cross_cpu, intra_cpu,
        hops_cross / double(samples),
        hops_intra / double(samples), network, demands / double(2 * samples), min_bw, peak_rss_mib(),
        seconds_since(begin));
  });
  double build, rss_built, cross_s, intra_s, cross_cpu, intra_cpu, hops_cross, hops_intra, demands, min_bw, rss, total;
  long long n, vertices, edges, network;
  std::sscanf(text.c_str(), "%lf %lf %lld %lld %lld %lf %lf %lf %lf %lf %lf %lld %lf %lf %lf %lf", &build, &rss_built,
              &n, &vertices, &edges, &cross_s, &intra_s, &cross_cpu, &intra_cpu, &hops_cross, &hops_intra, &network, &demands, &min_bw, &rss, &total);
  fmt::print("h100_cluster --set system.nodes={}: {} devices, {} vertices, {} edges (bundles)\n", nodes, n, vertices,
             edges);
  fmt::print("  load + build topology {:>8.3f} s, peak RSS {:.1f} MiB\n", build, rss_built);
  fmt::print("  10000 cross-node routes {:>7.3f} s wall, {:.3f} s cpu ({:.0f} routes/s wall, {:.2f} hops mean, {} cross "
             "the network)\n", cross_s, cross_cpu, 10000 / cross_s, hops_cross, network);
  fmt::print("  10000 intra-node routes {:>7.3f} s wall, {:.3f} s cpu ({:.0f} routes/s wall, {:.2f} hops mean)\n", intra_s,
             intra_cpu, 10000 / intra_s, hops_intra);
  fmt::print("  {:.1f} demands per route mean, slowest route alone {:.1f} GB/s; total {:.3f} s wall, peak RSS {:.1f} MiB\n",
             demands, min_bw / 1e9, total, rss);
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t nodes = argc > 1 ? std::stoll(argv[1]) : 12500;
  const char* sweep = "collective:op=all_reduce,bytes=1KiB..1GiB,factor=2,ranks=8";
  const char* big = "collective:op=all_reduce,bytes=1GiB,ranks=1024";
  const char* decode = "decode_llama70b:tp=8";
  fmt::print("{:<13} {:<58} {:>8} {:>8} {:>8} {:>14} {:>12}\n", "system", "workload", "wall s", "cpu s", "records",
             "peak RSS MiB", "simulated s");
  print_system_point("dgx_h100", sweep, time_system("dgx_h100", {}, sweep), true);
  print_system_point("h100_cluster", big, time_system("h100_cluster", {}, big), true);
  print_system_point("dgx_h100", decode, time_system("dgx_h100", {}, decode), false);
  const char* huge = "collective:op=all_reduce,bytes=1GiB,ranks=100000";
  print_system_point("h100_cluster", huge, time_system("h100_cluster", {"system.nodes=12500"}, huge), true);
  route_point(nodes);
  return 0;
}
