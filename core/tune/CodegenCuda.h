// Lowers a GPU-scheduled loop nest (tune/GpuDesignSpace.h) to CUDA C++ source: one
//   extern "C" __global__ void tessera_kernel(const float* in0, const float* in1[, const float* in2], float* out)
// launched on a one-dimensional grid, every buffer dense row-major float32 in device memory.
// Loops bound to blockIdx.x / threadIdx.x become the block's and the thread's fused indices,
// vthread.x loops run inside each thread below the shared-memory fetches (TVM's virtual thread
// injection), shared reads are fetched cooperatively between two __syncthreads(), the
// accumulator lives in registers and is written back with the epilogue fused. Plain text: core
// has no CUDA dependency; plugins/cuda compiles it with NVRTC.
#pragma once

#include "tune/LoopNest.h"

#include <cstdint>
#include <string>

namespace tessera::tune {

inline constexpr const char* kCudaKernelSymbol = "tessera_kernel";
// A __device__ array {grid, block} in the module, so a compiled kernel carries its own launch
// geometry (a cached PTX file is all the runner needs).
inline constexpr const char* kCudaLaunchSymbol = "tessera_launch";

struct CudaKernel {
  std::string source;
  int64_t gridBlocks = 1;      // gridDim.x
  int64_t threadsPerBlock = 1; // blockDim.x
  int64_t sharedBytes = 0;     // static shared memory
  int64_t localElements = 0;   // each thread's accumulator, in registers
};

// Throws tessera::Error for a nest the GPU cannot run as scheduled: a parallel or vectorised
// loop, a register tile, no accumulator right inside the bound loops, an epilogue at the root.
CudaKernel generateCuda(const LoopNest& nest);

// What a shared read stages: the product of the extents of the loops that move its buffer and
// run within one fetch (thread and virtual-thread loops, and the loops inside the fetch). A conv
// window is staged per (output, kernel) position, overlaps included, as im2col does.
int64_t sharedTileElements(const LoopNest& nest, const SharedRead& read);
// Each thread's accumulator: its virtual threads times the accumulator tile.
int64_t threadAccumulatorElements(const LoopNest& nest);

} // namespace tessera::tune
