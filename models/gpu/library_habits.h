#pragma once
// The GEMM library's habits, as a chip describes them (they are software facts of the vendor's
// library, not hardware): which macro tiles its heuristic picks among, how its kernels stage
// operands, and whether they remap thread blocks onto partitions. Defaults are NVIDIA's
// (cuBLAS/CUTLASS shapes, multistage shared-memory pipelines), so a chip file that says nothing
// keeps today's behaviour; configs/mi300x.toml gives hipBLASLt's (docs/cdna.md).
#include <string>
#include <vector>

namespace hwsim {

class Config;

struct GemmTileShape {
  int bm = 0, bn = 0;  // output tile (M × N elements)
  int bk16 = 0;        // K elements per pipeline stage for 16-bit operands (the same bytes for other
                       // dtypes: 64 → 128 for fp8); 0 = the model's 128-byte default
};

struct GemmLibraryHabits {
  // gpu.tile.gemm_tiles, in the heuristic's order (default: the shapes cuBLAS/CUTLASS ship)
  std::vector<GemmTileShape> tensor_tiles = {{128, 256}, {256, 128}, {128, 192}, {128, 128},
                                             {128, 64},  {64, 256},  {64, 128},  {64, 64}};
  // gpu.tile.unaligned_gemm_tiles: the CUTLASS 2.x (sm80-style, mma.sync) kernels the library
  // falls back to when an operand's rows or base address are not 16-byte aligned (no TMA)
  std::vector<GemmTileShape> unaligned_tiles = {{128, 128}, {128, 64}, {64, 128}, {64, 64}};
  // gpu.tile.simt_gemm_tiles (FP32 on the vector units)
  std::vector<GemmTileShape> simt_tiles = {{128, 128}, {128, 64}, {64, 128}, {64, 64}};
  // gpu.tile.register_prefetch_stages: K stages of global loads a kernel keeps in flight in
  // registers ahead of its shared-memory (LDS) buffers (Tensile's PrefetchGlobalRead=2); then one
  // LDS buffer suffices. 0 = loads land in shared memory directly (cp.async/TMA, ≥ 2 stages).
  int register_prefetch_stages = 0;
  // gpu.tile.gemm_partition_remap: the kernel renumbers its thread blocks so each partition takes
  // a contiguous run of output tiles (hipBLASLt's WorkGroupMappingXCC) instead of every P-th one.
  bool partition_remap = false;
  // gpu.tile.gemm_stream_k: the library's default heuristic may pick a stream-K kernel (cuBLAS
  // does); false where stream-K is opt-in (hipBLASLt: only with its Stream-K selection method),
  // so an output-tile count short of a round of CUs leaves CUs idle.
  bool stream_k = true;
  // gpu.tile.int8_mma_sync: the library's int8 GEMMs (int32 accumulation: torch._int_mm through
  // cuBLASLt) are Ampere-style mma.sync kernels on this chip, at gpu.sm.mma_sync_fraction of the
  // warpgroup rate, while its fp8 GEMMs take the warpgroup path.
  bool int8_mma_sync = false;
  // gpu.tile.int8_gemm_tiles: with int8_mma_sync, the tiles of those int8 kernels (CUTLASS 2.x
  // sm80 kernels as cuBLASLt ships them), each a whole-K CTA per output tile: no split-K, no
  // stream-K (the H100 probe's grids: data/measurements/h100_kernel_shapes.jsonl).
  std::vector<GemmTileShape> int8_tiles = {{64, 64}, {64, 128}, {256, 128}};

  static GemmLibraryHabits from_config(const Config& config);
};

// Parses "128x256,256x128x64,..." (BMxBN or BMxBNxBK16); throws a config error naming `origin`.
std::vector<GemmTileShape> parse_tile_shapes(const std::string& text, const std::string& key,
                                             const std::string& origin, bool allow_depth);

}  // namespace hwsim
