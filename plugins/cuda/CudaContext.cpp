#include "CudaContext.h"

namespace tessera::cuda {

CudaContext::CudaContext() {
  TESSERA_CUDA_CHECK(cudaSetDevice(0));
  stream_ = makeStream();
  cudnn_ = makeCudnnHandle();
  TESSERA_CUDA_CHECK(cudnnSetStream(cudnn_, stream_));
  cublas_ = makeCublasHandle();
  TESSERA_CUDA_CHECK(cublasSetStream(cublas_, stream_));
  // Plain FP32 (no TF32 tensor cores): the executor must match the float32 reference interpreter,
  // and measured costs must time the kernels the executor runs.
  TESSERA_CUDA_CHECK(cublasSetMathMode(cublas_, CUBLAS_DEFAULT_MATH));
}

void* CudaContext::workspace(size_t bytes) {
  if (workspace_.data() && workspace_.bytes() >= bytes) return workspace_.data();
  synchronize(); // work still queued may use the old workspace
  workspace_ = DeviceBuffer();
  workspace_ = DeviceBuffer(bytes);
  return workspace_.data();
}

void CudaContext::upload(float* device, const float* host, size_t count) {
  TESSERA_CUDA_CHECK(cudaMemcpyAsync(device, host, count * sizeof(float), cudaMemcpyHostToDevice, stream_));
}

void CudaContext::download(float* host, const float* device, size_t count) {
  TESSERA_CUDA_CHECK(cudaMemcpyAsync(host, device, count * sizeof(float), cudaMemcpyDeviceToHost, stream_));
  synchronize();
}

void CudaContext::synchronize() { TESSERA_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

} // namespace tessera::cuda
