#include "CudaHandles.h"

#include "support/Error.h"

#include <string>

namespace tessera::cuda {

namespace {

// "cudnnConvolutionForward(handle, ...)" -> "cudnnConvolutionForward": the name says enough.
std::string callName(const char* call) {
  std::string name(call);
  const size_t open = name.find('(');
  return open == std::string::npos ? name : name.substr(0, open);
}

template <class T, class Create>
T created(Create create, const char* what) {
  typename T::Raw handle{};
  check(create(&handle), what);
  return T(handle);
}

} // namespace

void check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError(); // clear a sticky launch error so the next call reports its own
  throw Error(callName(call) + ": " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")");
}

void check(cudnnStatus_t status, const char* call) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  throw Error(callName(call) + ": " + cudnnGetErrorString(status));
}

void check(cublasStatus_t status, const char* call) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw Error(callName(call) + ": " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}

Stream makeStream() {
  return created<Stream>([](cudaStream_t* s) { return cudaStreamCreate(s); }, "cudaStreamCreate");
}
Event makeEvent() { return created<Event>([](cudaEvent_t* e) { return cudaEventCreate(e); }, "cudaEventCreate"); }
CudnnHandle makeCudnnHandle() { return created<CudnnHandle>([](cudnnHandle_t* h) { return cudnnCreate(h); }, "cudnnCreate"); }
CublasHandle makeCublasHandle() { return created<CublasHandle>([](cublasHandle_t* h) { return cublasCreate(h); }, "cublasCreate"); }
TensorDescriptor makeTensorDescriptor() {
  return created<TensorDescriptor>([](cudnnTensorDescriptor_t* d) { return cudnnCreateTensorDescriptor(d); }, "cudnnCreateTensorDescriptor");
}
FilterDescriptor makeFilterDescriptor() {
  return created<FilterDescriptor>([](cudnnFilterDescriptor_t* d) { return cudnnCreateFilterDescriptor(d); }, "cudnnCreateFilterDescriptor");
}
ConvolutionDescriptor makeConvolutionDescriptor() {
  return created<ConvolutionDescriptor>([](cudnnConvolutionDescriptor_t* d) { return cudnnCreateConvolutionDescriptor(d); },
                                        "cudnnCreateConvolutionDescriptor");
}
PoolingDescriptor makePoolingDescriptor() {
  return created<PoolingDescriptor>([](cudnnPoolingDescriptor_t* d) { return cudnnCreatePoolingDescriptor(d); }, "cudnnCreatePoolingDescriptor");
}
ActivationDescriptor makeActivationDescriptor() {
  return created<ActivationDescriptor>([](cudnnActivationDescriptor_t* d) { return cudnnCreateActivationDescriptor(d); },
                                       "cudnnCreateActivationDescriptor");
}
LrnDescriptor makeLrnDescriptor() {
  return created<LrnDescriptor>([](cudnnLRNDescriptor_t* d) { return cudnnCreateLRNDescriptor(d); }, "cudnnCreateLRNDescriptor");
}

DeviceBuffer::DeviceBuffer(size_t bytes) : bytes_(bytes < sizeof(float) ? sizeof(float) : bytes) {
  check(cudaMalloc(&data_, bytes_), "cudaMalloc");
  try {
    check(cudaMemset(data_, 0, bytes_), "cudaMemset");
  } catch (...) {
    (void)cudaFree(data_);
    throw;
  }
}

DeviceBuffer::~DeviceBuffer() {
  if (data_) (void)cudaFree(data_);
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    if (data_) (void)cudaFree(data_);
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

} // namespace tessera::cuda
