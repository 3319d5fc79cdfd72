// load_kernel_program and list_kernel_entries (kernel_source.h): the file's kind by its extension.
#include "app/kernel/kernel_source.h"

#include <fmt/format.h>

#include "models/gpu/warp/parser.h"
#include "models/gpu/warp/ptx_reader.h"
#include "sim/error.h"
#include "sim/input_file.h"

namespace hwsim {
namespace {

std::string extension(const std::string& path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  return path.substr(dot);
}

bool is_ptx(const std::string& path) { return extension(path) == ".ptx" || extension(path) == ".cu"; }

// The PTX of a .ptx or .cu file.
std::string ptx_of(const std::string& path) {
  if (extension(path) == ".ptx") return read_input_file(path, "kernel file");
  return compile_cuda(path);
}

}  // namespace

warp::Program load_kernel_program(const std::string& path, const std::string& entry) {
  if (!is_ptx(path)) {  // .hwk, and any other name as before
    warp::Program p = warp::load_kernel(path);
    if (!entry.empty() && entry != p.name)
      usage_error(fmt::format("--entry {}: {} holds kernel {} alone", shorten(entry), shorten(path), p.name));
    return p;
  }
  return warp::parse_ptx(ptx_of(path), path, entry);
}

std::string list_kernel_entries(const std::string& path) {
  if (!is_ptx(path)) {
    warp::Program p = warp::load_kernel(path);
    std::string out = p.name + "\n";
    for (const auto& q : p.params)
      out += fmt::format("  {}: {} {}{}\n", q.name, q.buffer ? "buffer of" : "scalar", warp::type_name(q.type),
                         q.default_spec.empty() ? "" : " = " + q.default_spec);
    return out;
  }
  return warp::describe_entries(warp::list_ptx_entries(ptx_of(path), path));
}

}  // namespace hwsim
