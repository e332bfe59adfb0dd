// RAII for what the CUDA plugin creates (device memory, streams, events, cuDNN and cuBLAS handles
// and descriptors) and check() turning a CUDA, cuDNN or cuBLAS status into tessera::Error with the
// call's name. Destructors never throw: a release that fails (the device is gone) leaks at worst.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <cstddef>
#include <utility>

namespace tessera::cuda {

// Throw tessera::Error("<call>: <the library's error string>") unless the status is a success.
void check(cudaError_t status, const char* call);
void check(cudnnStatus_t status, const char* call);
void check(cublasStatus_t status, const char* call);
#define TESSERA_CUDA_CHECK(call) ::tessera::cuda::check((call), #call)

// A handle released by `Destroy` (whatever status it returns).
template <class T, auto Destroy>
class Owned {
public:
  using Raw = T;
  Owned() = default;
  explicit Owned(T handle) : handle_(handle) {}
  ~Owned() { reset(); }
  Owned(Owned&& other) noexcept : handle_(std::exchange(other.handle_, T{})) {}
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = std::exchange(other.handle_, T{});
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

  T get() const { return handle_; }
  operator T() const { return handle_; }
  void reset() {
    if (handle_) (void)Destroy(handle_);
    handle_ = T{};
  }

private:
  T handle_{};
};

using Stream = Owned<cudaStream_t, cudaStreamDestroy>;
using Event = Owned<cudaEvent_t, cudaEventDestroy>;
using CudnnHandle = Owned<cudnnHandle_t, cudnnDestroy>;
using CublasHandle = Owned<cublasHandle_t, cublasDestroy>;
using TensorDescriptor = Owned<cudnnTensorDescriptor_t, cudnnDestroyTensorDescriptor>;
using FilterDescriptor = Owned<cudnnFilterDescriptor_t, cudnnDestroyFilterDescriptor>;
using ConvolutionDescriptor = Owned<cudnnConvolutionDescriptor_t, cudnnDestroyConvolutionDescriptor>;
using PoolingDescriptor = Owned<cudnnPoolingDescriptor_t, cudnnDestroyPoolingDescriptor>;
using ActivationDescriptor = Owned<cudnnActivationDescriptor_t, cudnnDestroyActivationDescriptor>;
using LrnDescriptor = Owned<cudnnLRNDescriptor_t, cudnnDestroyLRNDescriptor>;

// Each throws tessera::Error when creation fails.
// A blocking stream: it orders after the legacy default stream, where cudaMemset and cudaFree run.
Stream makeStream();
Event makeEvent();
CudnnHandle makeCudnnHandle();
CublasHandle makeCublasHandle();
TensorDescriptor makeTensorDescriptor();
FilterDescriptor makeFilterDescriptor();
ConvolutionDescriptor makeConvolutionDescriptor();
PoolingDescriptor makePoolingDescriptor();
ActivationDescriptor makeActivationDescriptor();
LrnDescriptor makeLrnDescriptor();

// cudaMalloc'd memory of at least one float (cudaMalloc of 0 bytes gives no pointer to pass on).
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes); // zero-filled; throws tessera::Error when out of memory
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* data() const { return data_; }
  float* floats() const { return static_cast<float*>(data_); }
  size_t bytes() const { return bytes_; }

private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

} // namespace tessera::cuda
