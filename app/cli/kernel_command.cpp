// `hwsim --chip C --set gpu.core.model=warp --kernel K.hwk --grid N --block N [--arg ...]`:
// parses the kernel, runs it on the warp model, prints the report, dumps buffers, writes JSON,
// the Chrome trace and the pictures (--svg: bank map and warp states; --html: the page). User
// errors (parse, bounds, deadlock, --max-cycles) are one line, exit 4.
#include <fmt/format.h>
#include <iostream>

#include "models/gpu/warp/kernel_figures.h"
#include "models/gpu/warp/kernel_launch.h"
#include "models/gpu/warp/kernel_report.h"
#include "models/gpu/warp/parser.h"
#include "app/cli/commands.h"
#include "app/cli/output_file.h"
#include "sim/config/config.h"
#include "sim/error.h"
#include "viz/kernel_html.h"

namespace hwsim {

int kernel_command(const RunOptions& run, const KernelOptions& k) {
  Config config = load_config(run.chip, run.overrides);
  if (config.kind() != "gpu")
    usage_error("--kernel runs kernel programs on a GPU's warp model; " + config.text("name") + " is a " +
                config.kind() + " chip (use a gpu chip, e.g. --chip h100 --set gpu.core.model=warp)");
  if (config.text("gpu.core.model") != "warp")
    usage_error("--kernel runs on the warp model: add --set gpu.core.model=warp (the chip file says '" +
                config.text("gpu.core.model") + "')");
  if (!run.workload.empty()) usage_error("give either --workload or --kernel, not both");
  auto params = warp::WarpParams::from_config(config);
  warp::Program program = warp::load_kernel(k.kernel);
  warp::LaunchOptions options;
  options.args.grid = k.grid;
  options.args.block = k.block;
  for (const auto& a : k.args) {
    auto [name, value] = warp::parse_arg(a);
    options.args.args[name] = value;
  }
  options.max_cycles = k.max_cycles;
  options.sample_sms = k.sample_sms;
  options.trace = !k.trace_path.empty();
  if (k.max_cycles < 0) usage_error("--max-cycles must be positive");
  // check dump names before simulating
  for (const auto& d : k.dumps) {
    std::string name = d.substr(0, d.find('='));
    bool found = false;
    for (const auto& p : program.params) found |= p.buffer && p.name == name;
    if (!found) usage_error("--dump " + name + ": kernel " + program.name + " has no buffer parameter of that name");
  }
  auto result = warp::run_kernel(params, std::move(program), options);
  if (!run.json_path.empty()) {
    auto doc = warp::kernel_document(*result);
    doc["config"] = nlohmann::json::parse(config.resolved_json());
    write_file_atomically(run.json_path, doc.dump(2) + "\n");
  }
  if (!k.trace_path.empty()) write_file_atomically(k.trace_path, warp::chrome_trace(*result));
  if (!run.html_path.empty() || !run.svg_path.empty()) {
    warp::KernelFigures figures = warp::kernel_figures(*result);
    if (!run.html_path.empty()) write_output(run.html_path, kernel_html_report(config, *result, figures));
    if (!run.svg_path.empty()) write_output(run.svg_path, kernel_svg_report(figures));
  }
  // "-" puts a document on stdout: the text report stays off it.
  bool stdout_taken = is_stdout_path(run.json_path) || is_stdout_path(k.trace_path) || is_stdout_path(run.html_path) ||
                      is_stdout_path(run.svg_path);
  if (!run.quiet && !stdout_taken) warp::print_kernel_report(std::cout, *result);
  for (const auto& d : k.dumps) {
    auto eq = d.find('=');
    std::string name = d.substr(0, eq);
    const warp::Buffer* b = result->memory.by_name(name);
    if (eq != std::string::npos) {
      std::string text;
      for (std::uint64_t i = 0; i < b->count; ++i) text += result->memory.element_text(*b, i) + "\n";
      write_file_atomically(d.substr(eq + 1), text);
      continue;
    }
    const std::uint64_t shown = std::min<std::uint64_t>(b->count, 64);
    std::cout << fmt::format("{} ({} x {}):", name, b->count, warp::type_name(b->type));
    for (std::uint64_t i = 0; i < shown; ++i) std::cout << " " << result->memory.element_text(*b, i);
    if (shown < b->count) std::cout << fmt::format(" ... ({} more; --dump {}=FILE writes all)", b->count - shown, name);
    std::cout << "\n";
  }
  return 0;
}

}  // namespace hwsim
