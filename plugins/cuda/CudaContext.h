// What every GPU op of one profiler or executor shares: a stream on device 0, the cuDNN and cuBLAS
// handles bound to it, one scratch workspace, and the convolution algorithm chosen per signature
// (finding it runs every algorithm, so each distinct conv pays that once).
#pragma once

#include "CudaHandles.h"

#include <map>
#include <string>

namespace tessera::cuda {

struct ConvolutionChoice {
  cudnnConvolutionFwdAlgo_t algorithm;
  size_t workspaceBytes;
  cudnnMathType_t mathType;
};

class CudaContext {
public:
  // Throws tessera::Error when the device, cuDNN or cuBLAS cannot be set up.
  CudaContext();
  CudaContext(const CudaContext&) = delete;
  CudaContext& operator=(const CudaContext&) = delete;

  cudaStream_t stream() const { return stream_; }
  cudnnHandle_t cudnn() const { return cudnn_; }
  cublasHandle_t cublas() const { return cublas_; }

  // Scratch memory of at least `bytes`, valid until the next call that asks for more. Ops run one
  // after another on the stream, so one workspace serves them all.
  void* workspace(size_t bytes);

  // Copies on the stream; download waits for it. Throw tessera::Error on a device failure.
  void upload(float* device, const float* host, size_t count);
  void download(float* host, const float* device, size_t count);
  void synchronize();

  std::map<std::string, ConvolutionChoice>& convolutionChoices() { return convolutionChoices_; }

private:
  Stream stream_;
  CudnnHandle cudnn_;
  CublasHandle cublas_;
  DeviceBuffer workspace_;
  std::map<std::string, ConvolutionChoice> convolutionChoices_;
};

} // namespace tessera::cuda
