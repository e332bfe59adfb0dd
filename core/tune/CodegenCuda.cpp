// CUDA code generation from the loop nest.
#include "tune/CodegenCuda.h"

#include "tune/CodegenText.h"
#include "tune/Primitives.h"

#include "support/Error.h"

#include <algorithm>
#include <climits>

namespace tessera::tune {

namespace {

std::string var(const Loop& loop) { return loopVariable(loop); }

const Access& accessOf(const Compute& c, int buffer) { return buffer == 0 ? c.lhs : c.rhs; }

// The loops one fetch of `read` covers, outermost first.
std::vector<size_t> sharedTileLoops(const LoopNest& nest, const SharedRead& read) {
  const Access& access = accessOf(nest.compute, read.buffer);
  std::vector<size_t> loops;
  for (size_t i = 0; i < nest.loops.size(); ++i) {
    const Loop& loop = nest.loops[i];
    const bool within = loop.annotation == LoopAnnotation::ThreadIdx || loop.annotation == LoopAnnotation::VThread ||
                        static_cast<int>(i) >= read.at;
    if (within && loop.extent > 1 && access.coeff[loop.axis] != 0) loops.push_back(i);
  }
  return loops;
}

class CudaEmitter {
public:
  explicit CudaEmitter(const LoopNest& nest) : nest_(nest), c_(nest.compute) {}

  CudaKernel run() {
    check();
    CudaKernel kernel;
    kernel.gridBlocks = nest_.boundExtent(LoopAnnotation::BlockIdx);
    kernel.threadsPerBlock = nest_.boundExtent(LoopAnnotation::ThreadIdx);
    kernel.localElements = threadAccumulatorElements(nest_);
    for (const SharedRead& read : nest_.sharedReads) kernel.sharedBytes += 4 * sharedTileElements(nest_, read);
    bound_ = boundLoops(nest_);
    injectAt_ = bound_;
    for (const SharedRead& read : nest_.sharedReads) injectAt_ = std::max(injectAt_, read.at);
    tile_ = nest_.tileExtents();
    tileElements_ = nest_.accumulatorElements();
    accCoeff_ = rowMajorCoefficients(c_, tile_);

    line(0, "// tessera tune kernel (CUDA): " + c_.workload.key());
    line(0, std::string("extern \"C\" __device__ const unsigned int ") + kCudaLaunchSymbol + "[2] = {" +
                std::to_string(kernel.gridBlocks) + "u, " + std::to_string(kernel.threadsPerBlock) + "u};");
    emitPaddedLoad();
    std::string params = "const float* __restrict__ lhs, const float* __restrict__ rhs, ";
    if (c_.bias) params += "const float* __restrict__ bias, ";
    line(0, std::string("extern \"C\" __global__ void __launch_bounds__(") + std::to_string(kernel.threadsPerBlock) + ") " +
                kCudaKernelSymbol + "(" + params + "float* __restrict__ out) {");
    for (const SharedRead& read : nest_.sharedReads)
      line(1, "__shared__ float " + sharedName(read) + "[" + std::to_string(sharedTileElements(nest_, read)) + "];");
    emitIndices("blockIdx.x", LoopAnnotation::BlockIdx);
    emitIndices("threadIdx.x", LoopAnnotation::ThreadIdx);
    line(1, "float acc[" + std::to_string(kernel.localElements) + "];");
    line(1, "#pragma unroll");
    line(1, "for (int a = 0; a < " + std::to_string(kernel.localElements) + "; ++a) acc[a] = 0.0f;");
    emitLoop(bound_, 1);
    emitWriteBack();
    line(0, "}");
    kernel.source = out_;
    return kernel;
  }

private:
  void line(size_t depth, const std::string& text) { out_ += std::string(2 * depth, ' ') + text + "\n"; }

  [[noreturn]] void fail(const std::string& problem) const {
    throw Error("CUDA code generation for " + c_.workload.key() + ": " + problem);
  }

  void check() const {
    for (const Loop& loop : nest_.loops)
      if (loop.annotation == LoopAnnotation::Parallel || loop.annotation == LoopAnnotation::Vectorized)
        fail("loop " + loop.name + " is parallel or vectorised, which a GPU kernel expresses by binding it");
    if (nest_.registerTileAt >= 0) fail("a register tile has no GPU lowering (the accumulator is in registers already)");
    if (nest_.cacheWriteAt != boundLoops(nest_))
      fail("the accumulator must sit right inside the bound loops (cache-write at " + std::to_string(boundLoops(nest_)) + ", not " +
           std::to_string(nest_.cacheWriteAt) + ")");
    if (nest_.hasEpilogue() && nest_.epilogue != EpiloguePlacement::Inline)
      fail("the epilogue must be fused into the write-back: a root pass would need a second kernel");
    if (nest_.boundExtent(LoopAnnotation::ThreadIdx) > 1024) fail("more than 1024 threads per block");
    if (nest_.boundExtent(LoopAnnotation::BlockIdx) > INT_MAX) fail("more than 2^31 - 1 blocks");
    // Offsets are int: every buffer must index within it.
    for (int64_t elements : c_.inputElements)
      if (elements > INT_MAX) fail("an input of more than 2^31 - 1 elements");
    if (c_.outputElements > INT_MAX || (c_.padded && c_.padded->paddedElements() > INT_MAX)) fail("a buffer of more than 2^31 - 1 elements");
  }

  static std::string sharedName(const SharedRead& read) { return read.buffer == 0 ? "shared_lhs" : "shared_rhs"; }

  // A conv's lhs access addresses the zero-padded input; the kernel reads the unpadded one and
  // gives zeros outside it.
  void emitPaddedLoad() {
    if (!c_.padded) return;
    const PaddedInput& p = *c_.padded;
    const int64_t ph = p.h + 2 * p.pad, pw = p.w + 2 * p.pad;
    line(0, "__device__ __forceinline__ float load_padded(const float* __restrict__ x, int p) {");
    line(1, "const int pw = p % " + std::to_string(pw) + ", rest = p / " + std::to_string(pw) + ";");
    line(1, "const int h = rest % " + std::to_string(ph) + " - " + std::to_string(p.pad) + ", nc = rest / " + std::to_string(ph) +
                ", w = pw - " + std::to_string(p.pad) + ";");
    line(1, "return h >= 0 && h < " + std::to_string(p.h) + " && w >= 0 && w < " + std::to_string(p.w) + " ? x[(nc * " +
                std::to_string(p.h) + " + h) * " + std::to_string(p.w) + " + w] : 0.0f;");
    line(0, "}");
  }

  std::string globalLoad(int buffer, const std::string& offset) const {
    if (buffer == 0 && c_.padded) return "load_padded(lhs, " + offset + ")";
    return std::string(buffer == 0 ? "lhs" : "rhs") + "[" + offset + "]";
  }

  // const int l_<loop> for the loops bound to `binding`, from the fused index (innermost fastest).
  void emitIndices(const std::string& index, LoopAnnotation binding) {
    std::vector<const Loop*> loops;
    for (const Loop& loop : nest_.loops)
      if (loop.annotation == binding) loops.push_back(&loop);
    if (loops.empty()) return;
    const std::string rest = binding == LoopAnnotation::BlockIdx ? "block_rest" : "thread_rest";
    line(1, "int " + rest + " = (int)" + index + ";");
    for (size_t i = loops.size(); i-- > 0;) {
      const std::string e = std::to_string(loops[i]->extent);
      line(1, "const int " + var(*loops[i]) + " = " + rest + " % " + e + ";");
      if (i > 0) line(1, rest + " /= " + e + ";");
    }
  }

  // Loops are emitted in order from the first unbound one; a fetch goes before the loop at its
  // position, and the virtual-thread loops open below the deepest fetch.
  void emitLoop(size_t index, size_t depth) {
    for (const SharedRead& read : nest_.sharedReads)
      if (static_cast<size_t>(read.at) == index) emitFetch(read, depth);
    if (static_cast<int>(index) == injectAt_) {
      size_t d = depth;
      const size_t opened = openVThreads(d);
      emitBody(index, d);
      closeLoops(opened, d);
      return;
    }
    emitBody(index, depth);
  }

  size_t openVThreads(size_t& depth) {
    size_t opened = 0;
    for (const Loop& loop : nest_.loops) {
      if (loop.annotation != LoopAnnotation::VThread) continue;
      line(depth, "#pragma unroll");
      line(depth, "for (int " + var(loop) + " = 0; " + var(loop) + " < " + std::to_string(loop.extent) + "; ++" + var(loop) + ") {");
      ++depth;
      ++opened;
    }
    return opened;
  }

  void closeLoops(size_t opened, size_t& depth) {
    for (size_t i = 0; i < opened; ++i) line(--depth, "}");
  }

  void emitBody(size_t index, size_t depth) {
    if (index == nest_.loops.size()) {
      line(depth, "acc[" + accIndex() + "] += " + operand(0) + " * " + operand(1) + ";");
      return;
    }
    const Loop& loop = nest_.loops[index];
    if (loop.annotation == LoopAnnotation::Unrolled) line(depth, "#pragma unroll");
    const std::string v = var(loop);
    line(depth, "for (int " + v + " = 0; " + v + " < " + std::to_string(loop.extent) + "; ++" + v + ") {");
    emitLoop(index + 1, depth + 1);
    line(depth, "}");
  }

  std::string vthreadIndex() const {
    Affine sum;
    int64_t stride = 1;
    for (size_t i = nest_.loops.size(); i-- > 0;) {
      if (nest_.loops[i].annotation != LoopAnnotation::VThread) continue;
      sum.add(stride, var(nest_.loops[i]));
      stride *= nest_.loops[i].extent;
    }
    return sum.str();
  }

  std::string accIndex() const {
    Affine sum;
    sum.add(tileElements_, "(" + vthreadIndex() + ")");
    for (size_t i = nest_.cacheWriteAt; i < nest_.loops.size(); ++i) {
      const Loop& loop = nest_.loops[i];
      if (!c_.axes[loop.axis].reduction) sum.add(accCoeff_[loop.axis] * loop.stride, var(loop));
    }
    return sum.str();
  }

  // The multiply's operand: from its shared tile when staged, else from global memory.
  std::string operand(int buffer) const {
    const Access& access = accessOf(c_, buffer);
    for (const SharedRead& read : nest_.sharedReads) {
      if (read.buffer != buffer) continue;
      Affine index;
      const std::vector<size_t> loops = sharedTileLoops(nest_, read);
      int64_t stride = 1;
      for (size_t t = loops.size(); t-- > 0;) {
        index.add(stride, var(nest_.loops[loops[t]]));
        stride *= nest_.loops[loops[t]].extent;
      }
      return sharedName(read) + "[" + index.str() + "]";
    }
    Affine offset;
    for (const Loop& loop : nest_.loops) offset.add(access.coeff[loop.axis] * loop.stride, var(loop));
    return globalLoad(buffer, offset.str());
  }

  // All threads of the block fill the tile, each `vectorLength` consecutive elements a step; the
  // first barrier keeps the previous iteration's readers from seeing the new tile.
  void emitFetch(const SharedRead& read, size_t depth) {
    const std::vector<size_t> loops = sharedTileLoops(nest_, read);
    const int64_t elements = sharedTileElements(nest_, read);
    const int64_t threads = nest_.boundExtent(LoopAnnotation::ThreadIdx);
    const std::string v = std::to_string(read.vectorLength);
    const Access& access = accessOf(c_, read.buffer);
    line(depth, "__syncthreads();");
    line(depth, "for (int e0 = (int)threadIdx.x * " + v + "; e0 < " + std::to_string(elements) + "; e0 += " +
                    std::to_string(threads * read.vectorLength) + ") {");
    line(depth + 1, "#pragma unroll");
    line(depth + 1, "for (int e = e0; e < e0 + " + v + "; ++e) {");
    line(depth + 2, "if (e >= " + std::to_string(elements) + ") break;");
    line(depth + 2, "int rest = e;");
    std::vector<std::string> names(nest_.loops.size());
    for (size_t t = loops.size(); t-- > 0;) {
      const Loop& loop = nest_.loops[loops[t]];
      names[loops[t]] = "f_" + var(loop).substr(2);
      line(depth + 2, "const int " + names[loops[t]] + " = rest % " + std::to_string(loop.extent) + ";");
      if (t > 0) line(depth + 2, "rest /= " + std::to_string(loop.extent) + ";");
    }
    line(depth + 2, "(void)rest;");
    Affine offset;
    for (size_t i = 0; i < nest_.loops.size(); ++i) {
      const Loop& loop = nest_.loops[i];
      if (loop.extent == 1) continue;
      // Outside the tile, a loop is fixed for the fetch: a bound block index or an enclosing loop.
      offset.add(access.coeff[loop.axis] * loop.stride, names[i].empty() ? var(loop) : names[i]);
    }
    line(depth + 2, sharedName(read) + "[e] = " + globalLoad(read.buffer, offset.str()) + ";");
    line(depth + 1, "}");
    line(depth, "}");
    line(depth, "__syncthreads();");
  }

  void emitWriteBack() {
    size_t depth = 1;
    const size_t opened = openVThreads(depth);
    // The bound loops (virtual threads included) are outside the accumulator.
    Affine outBase, biasBase;
    for (size_t i = 0; i < static_cast<size_t>(nest_.cacheWriteAt); ++i) {
      const Loop& loop = nest_.loops[i];
      outBase.add(c_.output.coeff[loop.axis] * loop.stride, var(loop));
      if (c_.bias) biasBase.add(c_.bias->coeff[loop.axis] * loop.stride, var(loop));
    }
    Affine outIndex, accIndex, biasIndex;
    size_t d = depth;
    for (int a = 0; a < c_.spatialAxes(); ++a) {
      if (tile_[a] == 1) continue;
      const std::string w = "w_" + c_.axes[a].name;
      outIndex.add(c_.output.coeff[a], w);
      accIndex.add(accCoeff_[a], w);
      if (c_.bias) biasIndex.add(c_.bias->coeff[a], w);
      line(d, "#pragma unroll");
      line(d, "for (int " + w + " = 0; " + w + " < " + std::to_string(tile_[a]) + "; ++" + w + ") {");
      ++d;
    }
    std::string value = "acc[" + std::to_string(tileElements_) + " * (" + vthreadIndex() + ") + " + accIndex.str() + "]";
    if (c_.bias) value += " + bias[" + biasBase.str() + " + " + biasIndex.str() + "]";
    const std::string target = "out[" + outBase.str() + " + " + outIndex.str() + "]";
    if (c_.relu) {
      line(d, "const float v = " + value + ";");
      line(d, target + " = v > 0.0f ? v : 0.0f;");
    } else {
      line(d, target + " = " + value + ";");
    }
    while (d > depth) line(--d, "}");
    closeLoops(opened, depth);
  }

  const LoopNest& nest_;
  const Compute& c_;
  int bound_ = 0, injectAt_ = 0;
  std::vector<int64_t> tile_, accCoeff_;
  int64_t tileElements_ = 1;
  std::string out_;
};

} // namespace

int64_t sharedTileElements(const LoopNest& nest, const SharedRead& read) {
  int64_t elements = 1;
  for (size_t i : sharedTileLoops(nest, read)) elements *= nest.loops[i].extent;
  return elements;
}

int64_t threadAccumulatorElements(const LoopNest& nest) {
  return nest.boundExtent(LoopAnnotation::VThread) * std::max<int64_t>(nest.accumulatorElements(), 1);
}

CudaKernel generateCuda(const LoopNest& nest) { return CudaEmitter(nest).run(); }

} // namespace tessera::tune
