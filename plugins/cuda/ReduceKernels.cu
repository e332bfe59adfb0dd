// Row reductions, one block per output row: ReduceMean over any set of axes (read through
// strides) and LayerNormalization over contiguous rows. Sums are float, combined in a tree.
#include "Kernels.h"

namespace tessera::cuda {

namespace {

// The sum of every thread's `value` in the block, returned to all threads. Needs kThreads threads.
__device__ float blockSum(float value) {
  __shared__ float partial[kThreads / 32];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads(); // `partial` may still be read by a previous call
  if (lane == 0) partial[warp] = value;
  __syncthreads();
  float total = 0.0f;
  for (int w = 0; w < kThreads / 32; ++w) total += partial[w];
  return total;
}

__device__ int64_t offsetOf(int64_t index, const IndexSpace& space, const StridedView& view) {
  int64_t offset = view.offset;
  for (int d = space.rank - 1; d >= 0; --d) {
    offset += index % space.dims[d] * view.strides[d];
    index /= space.dims[d];
  }
  return offset;
}

__global__ void reduceMean(IndexSpace kept, StridedView keptView, IndexSpace reduced, StridedView reducedView, const float* x, float* out,
                           int64_t outputs, int64_t count) {
  for (int64_t o = blockIdx.x; o < outputs; o += gridDim.x) {
    const int64_t base = offsetOf(o, kept, keptView);
    float sum = 0.0f;
    for (int64_t r = threadIdx.x; r < count; r += blockDim.x) sum += x[base + offsetOf(r, reduced, reducedView)];
    sum = blockSum(sum);
    if (threadIdx.x == 0) out[o] = sum / static_cast<float>(count);
  }
}

__global__ void layerNorm(const float* x, const float* scale, const float* bias, float* y, int64_t rows, int64_t inner, float epsilon) {
  for (int64_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const float* src = x + row * inner;
    float* dst = y + row * inner;
    float sum = 0.0f;
    for (int64_t i = threadIdx.x; i < inner; i += blockDim.x) sum += src[i];
    const float mean = blockSum(sum) / static_cast<float>(inner);
    float squares = 0.0f;
    for (int64_t i = threadIdx.x; i < inner; i += blockDim.x) squares += (src[i] - mean) * (src[i] - mean);
    const float invStd = rsqrtf(blockSum(squares) / static_cast<float>(inner) + epsilon);
    for (int64_t i = threadIdx.x; i < inner; i += blockDim.x) dst[i] = (src[i] - mean) * invStd * scale[i] + (bias ? bias[i] : 0.0f);
  }
}

unsigned rowBlocks(int64_t rows) { return static_cast<unsigned>(rows < (int64_t{1} << 20) ? rows : (int64_t{1} << 20)); }

} // namespace

cudaError_t launchReduceMean(const IndexSpace& kept, const StridedView& keptView, const IndexSpace& reduced, const StridedView& reducedView,
                             const float* x, float* out, cudaStream_t stream) {
  const int64_t outputs = kept.numel(), count = reduced.numel();
  if (outputs == 0 || count == 0) return cudaSuccess;
  reduceMean<<<rowBlocks(outputs), kThreads, 0, stream>>>(kept, keptView, reduced, reducedView, x, out, outputs, count);
  return cudaGetLastError();
}

cudaError_t launchLayerNorm(const float* x, const float* scale, const float* bias, float* y, int64_t rows, int64_t inner, float epsilon,
                            cudaStream_t stream) {
  if (rows == 0 || inner == 0) return cudaSuccess;
  layerNorm<<<rowBlocks(rows), kThreads, 0, stream>>>(x, scale, bias, y, rows, inner, epsilon);
  return cudaGetLastError();
}

} // namespace tessera::cuda
