// The strided copy behind every layout op on the GPU: Concat writes each input into a window of
// the output, Split reads windows, Transpose and Slice read permuted or stepped strides, Pad (and a
// conv's asymmetric padding) fills what lies outside the source.
#include "Kernels.h"

namespace tessera::cuda {

namespace {

__global__ void stridedCopy(IndexSpace space, const float* src, StridedView srcView, float* dst, StridedView dstView, Padding padding,
                            int64_t total) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < total;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    int64_t rest = i, from = srcView.offset, to = dstView.offset;
    bool outside = false;
    for (int d = space.rank - 1; d >= 0; --d) {
      const int64_t coordinate = rest % space.dims[d];
      rest /= space.dims[d];
      to += coordinate * dstView.strides[d];
      int64_t source = coordinate;
      if (padding.active) {
        source -= padding.begin[d];
        outside = outside || source < 0 || source >= padding.sourceDims[d];
      }
      from += source * srcView.strides[d];
    }
    dst[to] = outside ? padding.fill : src[from];
  }
}

} // namespace

cudaError_t launchCopy(const IndexSpace& space, const float* src, const StridedView& srcView, float* dst, const StridedView& dstView,
                       const Padding& padding, cudaStream_t stream) {
  const int64_t total = space.numel();
  if (total == 0) return cudaSuccess;
  stridedCopy<<<blocksFor(total), kThreads, 0, stream>>>(space, src, srcView, dst, dstView, padding, total);
  return cudaGetLastError();
}

} // namespace tessera::cuda
