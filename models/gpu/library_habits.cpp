#include "models/gpu/library_habits.h"

#include <charconv>
#include <fmt/format.h>

#include "sim/config/config.h"
#include "sim/config/param.h"
#include "sim/error.h"

namespace hwsim {
namespace {

// A tile edge beyond this holds more accumulators than any register file (1024² FP32 = 4 MiB).
constexpr int kMaxTileEdge = 1024;

const ParamRegistration habit_params({"gpu"}, {
    text_param("gpu.tile.gemm_tiles",
               "GEMM macro tiles the library's heuristic chooses among (tensor/matrix cores), BMxBN or BMxBNxBK "
               "(BK: K per stage for 16-bit operands), comma-separated; default: cuBLAS/CUTLASS shapes")
        .defaults_to("128x256,256x128,128x192,128x128,128x64,64x256,64x128,64x64"),
    text_param("gpu.tile.unaligned_gemm_tiles",
               "GEMM tiles of the fallback kernels for operands whose rows or base address are not 16-byte aligned "
               "(Ampere-style mma.sync kernels without TMA), BMxBN, comma-separated")
        .defaults_to("128x128,128x64,64x128,64x64"),
    text_param("gpu.tile.simt_gemm_tiles", "GEMM tiles for FP32 on the vector (CUDA) cores, BMxBN, comma-separated")
        .defaults_to("128x128,128x64,64x128,64x64"),
    integer_param("gpu.tile.register_prefetch_stages",
                  "GEMM K stages of global loads held in registers ahead of the shared-memory buffers (Tensile "
                  "PrefetchGlobalRead; then one LDS buffer suffices); 0 = loads go straight to shared memory")
        .defaults_to("0").at_most(8),
    bool_param("gpu.tile.gemm_partition_remap",
               "GEMM kernels renumber thread blocks so each partition (XCD) takes a contiguous run of output tiles "
               "(hipBLASLt WorkGroupMappingXCC) instead of every gpu.partitions-th one")
        .defaults_to("false"),
    bool_param("gpu.tile.gemm_stream_k",
               "the GEMM library's default heuristic may choose a stream-K kernel (persistent blocks sharing K "
               "iterations) when output tiles exceed one round of SMs; false: data-parallel and split-K only")
        .defaults_to("true"),
    bool_param("gpu.tile.int8_mma_sync",
               "int8 GEMMs (torch._int_mm: cuBLASLt, int32 accumulation) run on Ampere-style mma.sync kernels, at "
               "gpu.sm.mma_sync_fraction of the warpgroup rate")
        .defaults_to("false"),
    text_param("gpu.tile.int8_gemm_tiles",
               "with gpu.tile.int8_mma_sync: the tiles of the library's int8 kernels (BMxBN, M along the activation "
               "rows), each CTA walking all of K (no split-K or stream-K); default: cuBLASLt's CUTLASS sm80 int8 "
               "kernels on an H100 (64x64, 64x128, 256x128)")
        .defaults_to("64x64,64x128,256x128"),
});

int parse_edge(std::string_view s, const std::string& where) {
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 1 || v > kMaxTileEdge)
    config_error(fmt::format("{}: '{}' is not a tile edge (a whole number 1-{})", where, s, kMaxTileEdge));
  return v;
}

}  // namespace

std::vector<GemmTileShape> parse_tile_shapes(const std::string& text, const std::string& key, const std::string& origin,
                                             bool allow_depth) {
  std::vector<GemmTileShape> out;
  std::string where = origin + ": " + key;
  std::string_view rest = text;
  while (!rest.empty()) {
    std::size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    std::string shown(item);
    std::vector<std::string_view> edges;
    for (std::size_t x; (x = item.find('x')) != std::string_view::npos; item.remove_prefix(x + 1))
      edges.push_back(item.substr(0, x));
    edges.push_back(item);
    if (edges.size() < 2 || edges.size() > (allow_depth ? 3u : 2u))
      config_error(fmt::format("{}: '{}' is not a tile (write BMxBN{}, e.g. 256x224{})", where, shown,
                               allow_depth ? " or BMxBNxBK" : "", allow_depth ? "x64" : ""));
    GemmTileShape t{parse_edge(edges[0], where), parse_edge(edges[1], where), 0};
    if (edges.size() == 3) t.bk16 = parse_edge(edges[2], where);
    out.push_back(t);
  }
  if (out.empty()) config_error(where + ": no tile given (e.g. \"128x128,64x64\")");
  return out;
}

GemmLibraryHabits GemmLibraryHabits::from_config(const Config& c) {
  GemmLibraryHabits h;
  h.tensor_tiles = parse_tile_shapes(c.text("gpu.tile.gemm_tiles"), "gpu.tile.gemm_tiles",
                                     c.value("gpu.tile.gemm_tiles").origin, true);
  h.unaligned_tiles = parse_tile_shapes(c.text("gpu.tile.unaligned_gemm_tiles"), "gpu.tile.unaligned_gemm_tiles",
                                        c.value("gpu.tile.unaligned_gemm_tiles").origin, false);
  h.simt_tiles = parse_tile_shapes(c.text("gpu.tile.simt_gemm_tiles"), "gpu.tile.simt_gemm_tiles",
                                   c.value("gpu.tile.simt_gemm_tiles").origin, false);
  h.register_prefetch_stages = int(c.whole("gpu.tile.register_prefetch_stages"));
  h.partition_remap = c.flag("gpu.tile.gemm_partition_remap");
  h.stream_k = c.flag("gpu.tile.gemm_stream_k");
  h.int8_mma_sync = c.flag("gpu.tile.int8_mma_sync");
  h.int8_tiles = parse_tile_shapes(c.text("gpu.tile.int8_gemm_tiles"), "gpu.tile.int8_gemm_tiles",
                                   c.value("gpu.tile.int8_gemm_tiles").origin, false);
  return h;
}

}  // namespace hwsim
