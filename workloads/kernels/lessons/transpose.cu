// Lesson 2: matrix transpose of a 2048 x 2048 float matrix, after Mark Harris, "An Efficient
// Matrix Transpose in CUDA C/C++". A 32x32 tile per block, blockDim (32, 8): each thread moves
// 4 elements (rows j, j+8, j+16, j+24 of the tile). Grid (width/32, height/32).
//
//   copy_coalesced     plain copy with the same access pattern as a reference ceiling
//   transpose_naive    coalesced reads, strided writes (each warp store touches 32 rows)
//   transpose_shared   through a 32x32 shared tile: coalesced both ways, but 32-way bank conflicts
//                      when a column of the tile is read
//   transpose_padded   the same with the tile padded to [32][33]: conflict-free
//
// Build: nvcc -O3 -arch=sm_90 transpose.cu -o transpose
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define TILE_DIM 32
#define BLOCK_ROWS 8

#define CHECK(x)                                                                 \
  do {                                                                           \
    cudaError_t e_ = (x);                                                        \
    if (e_ != cudaSuccess) {                                                     \
      printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

// out[y][x] = in[y][x]: the bandwidth a transpose could reach.
__global__ void copy_coalesced(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * width + x] = in[(y + j) * width + x];
}

// out[x][y] = in[y][x] straight from global memory: the reads are coalesced, the writes have a
// stride of `height` floats between neighbouring threads.
__global__ void transpose_naive(const float* in, float* out, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x * height + (y + j)] = in[(y + j) * width + x];
}

// Stage the tile in shared memory, then write it out transposed: both global accesses are
// coalesced; reading tile[threadIdx.x][...] walks down a column: all 32 lanes in one bank.
__global__ void transpose_shared(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // transposed block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// The same with one padding column: a column of the tile now spans all 32 banks.
__global__ void transpose_padded(const float* in, float* out, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int width = 2048, height = 2048;
  const size_t count = (size_t)width * height, bytes = count * sizeof(float);
  std::vector<float> h_in(count), h_out(count);
  for (size_t i = 0; i < count; ++i) h_in[i] = (float)i;
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, bytes));
  CHECK(cudaMalloc(&d_out, bytes));
  CHECK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));
  dim3 grid(width / TILE_DIM, height / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  const char* names[4] = {"copy_coalesced", "transpose_naive", "transpose_shared", "transpose_padded"};
  const int reps = 100;
  for (int k = 0; k < 4; ++k) {
    CHECK(cudaMemset(d_out, 0, bytes));
    for (int r = -1; r < reps; ++r) {  // r = -1: warm-up
      if (r == 0) cudaEventRecord(start);
      switch (k) {
        case 0: copy_coalesced<<<grid, block>>>(d_in, d_out, width, height); break;
        case 1: transpose_naive<<<grid, block>>>(d_in, d_out, width, height); break;
        case 2: transpose_shared<<<grid, block>>>(d_in, d_out, width, height); break;
        default: transpose_padded<<<grid, block>>>(d_in, d_out, width, height); break;
      }
    }
    cudaEventRecord(stop);
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    CHECK(cudaMemcpy(h_out.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int y = 0; y < height && ok; ++y)
      for (int x = 0; x < width; ++x) {
        float want = k == 0 ? h_in[(size_t)y * width + x] : h_in[(size_t)x * width + y];
        if (h_out[(size_t)y * height + x] != want) { ok = false; break; }
      }
    double us = ms * 1000.0 / reps;
    printf("%-18s %8.2f us  %7.1f GB/s  %s\n", names[k], us, 2.0 * bytes / us * 1e-3, ok ? "ok" : "WRONG");
  }
  cudaFree(d_in);
  cudaFree(d_out);
  return 0;
}
