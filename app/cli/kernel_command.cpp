// `hwsim --chip C --kernel K.hwk --grid N --block N [--arg ...]`: parses the kernel, runs it on
// the warp model (a kernel program chooses it: gpu.core.model = warp), prints the report, dumps
// buffers, writes JSON, the Chrome trace and the pictures (--svg: bank map and warp states;
// --html: the page). User errors (parse, bounds, deadlock, --max-cycles) are one line, exit 4.
#include <fmt/format.h>
#include <iostream>
#include <optional>

#include "ops/device.h"
#include "models/gpu/warp/kernel_figures.h"
#include "models/gpu/warp/kernel_launch.h"
#include "viz/warp/kernel_report.h"
#include "app/kernel/kernel_source.h"
#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "app/progress.h"
#include "sim/config/config.h"
#include "sim/error.h"
#include "sim/input_file.h"
#include "sim/memory_budget.h"
#include "viz/kernel_html.h"

namespace hwsim {
namespace {

// --grid and --block (X[,Y[,Z]]; the block from the kernel's .reqntid when not given) and
// --dynamic-shared into the launch.
void set_launch_shape(const warp::Program& program, const KernelOptions& k, warp::LaunchArgs& a) {
  warp::parse_dims(k.grid, "--grid", a.grid_dim);
  if (!k.block.empty()) warp::parse_dims(k.block, "--block", a.block_dim);
  else if (program.reqntid[0] > 0)
    for (int d = 0; d < 3; ++d) a.block_dim[d] = program.reqntid[d];
  else
    a.block_dim[0] = 32, a.block_dim[1] = a.block_dim[2] = 1;
  auto product = [](const std::int64_t* d) -> std::int64_t {
    const double p = double(d[0]) * double(d[1]) * double(d[2]);
    return p > 4e18 ? std::int64_t(4e18) : d[0] * d[1] * d[2];
  };
  a.grid = product(a.grid_dim);
  a.block = product(a.block_dim);
  if (k.dynamic_shared < 0) usage_error("--dynamic-shared must be at least 0 bytes");
  if (k.dynamic_shared > (1ll << 30)) usage_error("--dynamic-shared: more than 1 GiB of shared memory per block");
  a.dynamic_shared = std::uint64_t(k.dynamic_shared);
}

}  // namespace

// A full-grid run longer than this (host seconds) ends with a note on --sample-sms.
constexpr double kSampleHintSeconds = 10;

int kernel_command(const RunOptions& run, const KernelOptions& k) {
  Config config = load_chip(run.chip, run.overrides);
  if (config.kind() != "gpu")
    usage_error("--kernel runs kernel programs on a GPU's warp model; " + config.text("name") + " is a " +
                config.kind() + " chip (use a gpu chip, e.g. --chip h100)");
  if (config.text("gpu.core.model") != "warp") {
    // a kernel program runs on the warp model: choose it, unless the command line asked for another
    for (const auto& o : run.overrides)
      if (o.rfind("gpu.core.model=", 0) == 0)
        usage_error("--kernel runs on the warp model, but --set " + shorten(o) + " asks for another; drop that --set");
    std::vector<std::string> overrides = {"gpu.core.model=warp"};
    overrides.insert(overrides.end(), run.overrides.begin(), run.overrides.end());
    config = load_chip(run.chip, overrides);
  }
  if (!run.workload.empty()) usage_error("give either --workload or --kernel, not both");
  auto params = warp::WarpParams::from_config(config);
  warp::Program program = load_kernel_program(k.kernel, k.entry);
  warp::LaunchOptions options;
  set_launch_shape(program, k, options.args);
  for (const auto& a : k.args) {
    auto [name, value] = warp::parse_arg(a);
    options.args.args[name] = value;
  }
  options.max_cycles = k.max_cycles;
  options.sample_sms = k.sample_sms;
  options.warm_l2 = k.warm_l2;
  options.trace = !k.trace_path.empty();
  if (k.max_cycles < 0) usage_error("--max-cycles must be positive");
  // check dump names before simulating
  for (const auto& d : k.dumps) {
    std::string name = d.substr(0, d.find('='));
    bool found = false;
    for (const auto& p : program.params) found |= (p.buffer || p.untyped) && p.name == name;
    if (!found) usage_error("--dump " + shorten(name) + ": kernel " + program.name + " has no buffer parameter of that name");
  }
  // Output files: checked before the run, written all or nothing after it (app/cli/output_file.h).
  std::unique_ptr<warp::KernelRun> result;
  warp::KernelFigures figures;  // every figure, once, before any printer
  OutputSet outputs;
  outputs.add("--json", run.json_path, [&] {
    nlohmann::json doc = {{"hwsim", HWSIM_VERSION}, {"chip", {{"name", config.text("name")}, {"file", config.chip_path()}}}};
    doc.update(warp::kernel_document(*result, figures));
    doc["config"] = nlohmann::json::parse(config.resolved_json());
    return doc.dump(2) + "\n";
  });
  outputs.add("--trace", k.trace_path, [&] { return warp::chrome_trace(*result); });
  outputs.add("--html", run.html_path, [&] { return kernel_html_report(config, *result, figures); });
  outputs.add("--svg", run.svg_path, [&] { return kernel_svg_report(figures); });
  for (const auto& d : k.dumps) {
    auto eq = d.find('=');
    if (eq == std::string::npos) continue;
    std::string name = d.substr(0, eq);
    outputs.add("--dump " + name, d.substr(eq + 1), [&, name] {
      const warp::Buffer* b = result->memory.by_name(name);
      // One line per element, up to ~24 characters each: stated before the text is built.
      require_memory(double(b->count) * 24, fmt::format("--dump {} ({} elements)", name, b->count));
      std::string text;
      for (std::uint64_t i = 0; i < b->count; ++i) text += result->memory.element_text(*b, i) + "\n";
      return text;
    });
  }
  outputs.check();
  std::optional<ProgressBar> bar;  // drawn only on a terminal (app/progress.h)
  options.progress = [&bar](std::uint64_t done, std::uint64_t total) {
    if (!bar) bar.emplace("kernel", total, "blocks");
    bar->update(done);
  };
  result = warp::run_kernel(params, std::move(program), options);
  if (bar) bar->finish();
  if (!run.quiet && result->host_seconds > kSampleHintSeconds && result->stats.ctas_simulated == result->grid)
    std::cerr << fmt::format("note: simulating all {} blocks took {:.0f} s; --sample-sms 16 simulates 16 SMs and their "
                             "share of the grid, and scales the kernel's counts to the whole grid\n",
                             result->grid, result->host_seconds);
  figures = warp::kernel_figures(*result);
  for (const auto& d : k.dumps)  // an untyped PTX pointer given a scalar holds no buffer
    if (!result->memory.by_name(d.substr(0, d.find('='))))
      usage_error("--dump " + shorten(d) + ": parameter " + d.substr(0, d.find('=')) + " was given a value, not a buffer");
  outputs.write();
  // "-" puts a document on stdout: the text report stays off it.
  if (!run.quiet && !outputs.takes_stdout()) warp::print_kernel_report(std::cout, *result, figures);
  for (const auto& d : k.dumps) {
    if (d.find('=') != std::string::npos) continue;
    const warp::Buffer* b = result->memory.by_name(d);
    const std::uint64_t shown = std::min<std::uint64_t>(b->count, 64);
    std::cout << fmt::format("{} ({} x {}):", d, b->count, warp::type_name(b->type));
    for (std::uint64_t i = 0; i < shown; ++i) std::cout << " " << result->memory.element_text(*b, i);
    if (shown < b->count) std::cout << fmt::format(" ... ({} more; --dump {}=FILE writes all)", b->count - shown, d);
    std::cout << "\n";
  }
  return 0;
}

}  // namespace hwsim
