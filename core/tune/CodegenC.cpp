// C code generation from the loop nest.
#include "tune/CodegenC.h"

#include "tune/CodegenText.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::tune {

namespace {

std::string var(const Loop& loop) { return loopVariable(loop); }

class Emitter {
public:
  explicit Emitter(const LoopNest& nest) : nest_(nest), c_(nest.compute) {
    tile_ = nest.tileExtents();
    regTile_ = nest.registerTileExtents();
    regCoeff_ = rowMajorCoefficients(c_, regTile_);
    accCoeff_ = rowMajorCoefficients(c_, tile_);
  }

  std::string run() {
    line(0, "/* tessera tune kernel: " + c_.workload.key() + " */");
    line(0, "#include <stdlib.h>");
    line(0, "#include <string.h>");
    line(0, "");
    line(0, std::string("void ") + kKernelSymbol + "(const float* const* inputs, float* restrict out) {");
    line(1, "const float* restrict rhs = inputs[1];");
    if (c_.bias) line(1, "const float* restrict bias = inputs[2];");
    emitPadding();
    if (nest_.cacheWriteAt < 0) line(1, "memset(out, 0, " + std::to_string(c_.outputElements) + " * sizeof(float));");
    emitLoop(0, 1);
    if (nest_.hasEpilogue() && nest_.epilogue == EpiloguePlacement::Root) emitRootEpilogue();
    if (c_.padded) line(1, "free(padded);");
    line(0, "}");
    return out_;
  }

private:
  void line(size_t depth, const std::string& text) { out_ += std::string(2 * depth, ' ') + text + "\n"; }

  void emitPadding() {
    if (!c_.padded) {
      line(1, "const float* restrict lhs = inputs[0];");
      return;
    }
    const PaddedInput& p = *c_.padded;
    const int64_t ph = p.h + 2 * p.pad, pw = p.w + 2 * p.pad;
    const int64_t bytes = (p.paddedElements() * 4 + 63) / 64 * 64;
    line(1, "float* padded = (float*)aligned_alloc(64, " + std::to_string(bytes) + ");");
    line(1, "if (!padded) return;");
    line(1, "memset(padded, 0, " + std::to_string(bytes) + ");");
    line(1, "for (long nc = 0; nc < " + std::to_string(p.n * p.c) + "; ++nc)");
    line(2, "for (long h = 0; h < " + std::to_string(p.h) + "; ++h)");
    line(3, "memcpy(padded + (nc * " + std::to_string(ph) + " + h + " + std::to_string(p.pad) + ") * " + std::to_string(pw) +
                " + " + std::to_string(p.pad) + ", inputs[0] + (nc * " + std::to_string(p.h) + " + h) * " + std::to_string(p.w) +
                ", " + std::to_string(p.w) + " * sizeof(float));");
    line(1, "const float* restrict lhs = padded;");
  }

  // Offset of `access` over the loops in [first, last).
  std::string offset(const Access& access, size_t first, size_t last) const {
    Affine sum;
    for (size_t i = first; i < last; ++i) {
      const Loop& loop = nest_.loops[i];
      sum.add(access.coeff[loop.axis] * loop.stride, var(loop));
    }
    return sum.str();
  }

  std::string pragmaFor(size_t index) const {
    const Loop& loop = nest_.loops[index];
    switch (loop.annotation) {
    case LoopAnnotation::Parallel:
      return index == 0 ? "#pragma omp parallel for collapse(" + std::to_string(nest_.parallelLoops()) + ") schedule(static)" : "";
    case LoopAnnotation::Vectorized: return "#pragma omp simd";
    case LoopAnnotation::Unrolled: return "#pragma GCC unroll " + std::to_string(loop.extent);
    case LoopAnnotation::Serial: break;
    case LoopAnnotation::BlockIdx:
    case LoopAnnotation::VThread:
    case LoopAnnotation::ThreadIdx:
      throw Error("C code generation: loop " + loop.name + " is bound to " + gpuBindingName(loop.annotation) +
                  " (a GPU schedule: lower it with generateCuda)");
    }
    return "";
  }

  void emitLoop(size_t index, size_t depth) {
    if (static_cast<int>(index) == nest_.cacheWriteAt) {
      line(depth, "{");
      line(depth + 1, "float acc[" + std::to_string(nest_.accumulatorElements()) + "] __attribute__((aligned(64)));");
      line(depth + 1, "memset(acc, 0, sizeof(acc));");
      emitInner(index, depth + 1);
      emitWriteBack(depth + 1);
      line(depth, "}");
      return;
    }
    emitRegisterTile(index, depth);
  }

  void emitRegisterTile(size_t index, size_t depth) {
    if (static_cast<int>(index) != nest_.registerTileAt) {
      emitInner(index, depth);
      return;
    }
    line(depth, "{");
    line(depth + 1, "float reg[" + std::to_string(nest_.registerTileElements()) + "] __attribute__((aligned(64)));");
    line(depth + 1, "memset(reg, 0, sizeof(reg));");
    emitInner(index, depth + 1);
    // reg += into the accumulator or the output, over the register tile.
    const bool intoAcc = nest_.cacheWriteAt >= 0;
    Affine base;
    for (size_t i = intoAcc ? nest_.cacheWriteAt : 0; i < index; ++i) {
      const Loop& loop = nest_.loops[i];
      if (c_.axes[loop.axis].reduction) continue;
      base.add((intoAcc ? accCoeff_[loop.axis] : c_.output.coeff[loop.axis]) * loop.stride, var(loop));
    }
    Affine target, source;
    size_t d = depth + 1;
    const int spatial = c_.spatialAxes();
    for (int a = 0; a < spatial; ++a) {
      if (regTile_[a] == 1) continue;
      const std::string w = "r_" + c_.axes[a].name;
      target.add(intoAcc ? accCoeff_[a] : c_.output.coeff[a], w);
      source.add(regCoeff_[a], w);
      bool innermost = true;
      for (int b = a + 1; b < spatial; ++b) innermost = innermost && regTile_[b] == 1;
      line(d, innermost ? "#pragma omp simd" : "#pragma GCC unroll " + std::to_string(regTile_[a]));
      line(d, "for (long " + w + " = 0; " + w + " < " + std::to_string(regTile_[a]) + "; ++" + w + ") {");
      ++d;
    }
    line(d, std::string(intoAcc ? "acc" : "out") + "[" + base.str() + " + " + target.str() + "] += reg[" + source.str() + "];");
    while (d > depth + 1) line(--d, "}");
    line(depth, "}");
  }

  void emitInner(size_t index, size_t depth) {
    if (index == nest_.loops.size()) {
      std::string target = nest_.registerTileAt >= 0 ? "reg[" + regOffset() + "]"
                           : nest_.cacheWriteAt < 0 ? "out[" + offset(c_.output, 0, index) + "]"
                                                    : "acc[" + accOffset() + "]";
      line(depth, target + " += lhs[" + offset(c_.lhs, 0, index) + "] * rhs[" + offset(c_.rhs, 0, index) + "];");
      return;
    }
    const Loop& loop = nest_.loops[index];
    if (std::string pragma = pragmaFor(index); !pragma.empty()) line(depth, pragma);
    const std::string v = var(loop);
    // Collapsed parallel loops must nest with nothing between them, braces included.
    const bool braces = !(loop.annotation == LoopAnnotation::Parallel && static_cast<int>(index) + 1 < nest_.parallelLoops());
    line(depth, "for (long " + v + " = 0; " + v + " < " + std::to_string(loop.extent) + "; ++" + v + ")" + (braces ? " {" : ""));
    emitLoop(index + 1, depth + 1);
    if (braces) line(depth, "}");
  }

  std::string regOffset() const {
    Affine sum;
    for (size_t i = nest_.registerTileAt; i < nest_.loops.size(); ++i) {
      const Loop& loop = nest_.loops[i];
      if (!c_.axes[loop.axis].reduction) sum.add(regCoeff_[loop.axis] * loop.stride, var(loop));
    }
    return sum.str();
  }

  std::string accOffset() const {
    Affine sum;
    for (size_t i = nest_.cacheWriteAt; i < nest_.loops.size(); ++i) {
      const Loop& loop = nest_.loops[i];
      if (!c_.axes[loop.axis].reduction) sum.add(accCoeff_[loop.axis] * loop.stride, var(loop));
    }
    return sum.str();
  }

  std::string withBias(const std::string& value, const std::string& biasOffset) const {
    return c_.bias ? value + " + bias[" + biasOffset + "]" : value;
  }

  // Loops w_<axis> over the tile (or the whole output), innermost the last spatial axis.
  void emitTileLoops(size_t depth, const std::vector<int64_t>& extents, const std::string& outBase,
                     const std::string& biasBase, bool fromAccumulator, bool parallel) {
    const int spatial = c_.spatialAxes();
    Affine outIndex, accIndex, biasIndex;
    size_t d = depth;
    bool first = true;
    for (int a = 0; a < spatial; ++a) {
      if (extents[a] == 1) continue;
      const std::string w = "w_" + c_.axes[a].name;
      outIndex.add(c_.output.coeff[a], w);
      accIndex.add(accCoeff_[a], w);
      if (c_.bias) biasIndex.add(c_.bias->coeff[a], w);
      bool innermost = true;
      for (int b = a + 1; b < spatial; ++b) innermost = innermost && extents[b] == 1;
      if (first && parallel) line(d, "#pragma omp parallel for schedule(static)");
      else if (innermost) line(d, "#pragma omp simd");
      line(d, "for (long " + w + " = 0; " + w + " < " + std::to_string(extents[a]) + "; ++" + w + ") {");
      first = false;
      ++d;
    }
    const std::string outAt = "out[" + outBase + " + " + outIndex.str() + "]";
    const std::string biasAt = biasBase + " + " + biasIndex.str();
    const std::string value = fromAccumulator ? "acc[" + accIndex.str() + "]" : outAt;
    const bool fused = !fromAccumulator || nest_.epilogue == EpiloguePlacement::Inline;
    if (!fused) {
      line(d, outAt + " = " + value + ";");
    } else if (c_.relu) {
      line(d, "const float v = " + withBias(value, biasAt) + ";");
      line(d, outAt + " = v > 0.0f ? v : 0.0f;");
    } else {
      line(d, outAt + " = " + withBias(value, biasAt) + ";");
    }
    while (d > depth) line(--d, "}");
  }

  void emitWriteBack(size_t depth) {
    const size_t outer = static_cast<size_t>(nest_.cacheWriteAt);
    emitTileLoops(depth, tile_, offset(c_.output, 0, outer), c_.bias ? offset(*c_.bias, 0, outer) : "0", true, false);
  }

  void emitRootEpilogue() {
    std::vector<int64_t> full(c_.axes.size(), 1);
    for (int a = 0; a < c_.spatialAxes(); ++a) full[a] = c_.axes[a].extent;
    emitTileLoops(1, full, "0", "0", false, nest_.parallelLoops() > 0);
  }

  const LoopNest& nest_;
  const Compute& c_;
  std::vector<int64_t> tile_, accCoeff_, regTile_, regCoeff_;
  std::string out_;
};

} // namespace

std::string generateC(const LoopNest& nest) { return Emitter(nest).run(); }

bool needsOpenMp(const LoopNest& nest) { return nest.parallelLoops() > 0; }

} // namespace tessera::tune
