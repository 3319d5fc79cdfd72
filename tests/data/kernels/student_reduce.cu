// A student's whole CUDA file, as they would hand it in: kernels and a host main that hwsim only
// parses (tests/integration/i408_kernel_cuda_source.cpp).
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void reduce_shared(const float* in, float* out, unsigned n) {
  extern __shared__ float s[];
  unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

template <int PAD>
__global__ void transpose_tile(float* out, const float* in, int n) {
  __shared__ float tile[32][32 + PAD];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
template __global__ void transpose_tile<0>(float*, const float*, int);
template __global__ void transpose_tile<1>(float*, const float*, int);

__global__ void histogram_shared(const unsigned char* in, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

int main() {
  const unsigned n = 1 << 20;
  std::vector<float> host(n, 1.0f);
  float *in, *out;
  cudaMalloc((void**)&in, n * sizeof(float));
  cudaMalloc((void**)&out, (n / 256) * sizeof(float));
  cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  reduce_shared<<<n / 256, 256, 256 * sizeof(float)>>>(in, out, n);
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%.3f ms\n", ms);
  transpose_tile<1><<<dim3(64, 64), dim3(32, 8)>>>(out, in, 2048);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
