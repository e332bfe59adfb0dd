// Ops that rewrites apply to weights: TENSAT's Enlarge (zero-pad a kernel to a reference
// kernel's spatial size) and MergeGroups (TASO's merge_gconv: the block-diagonal weight of a conv
// with fewer groups), and the folding of an inference BatchNorm into the preceding conv.
#include "interp/Kernels.h"

#include <cmath>
#include <cstring>

namespace tessera::interp {

// W[M,C,kh,kw] -> [M,C,KH,KW] with W centred: (KH-kh)/2 zero rows above, (KW-kw)/2 zero columns
// left (the shape rule requires the growth to be even), as TASO's enlarge kernel does.
Tensor enlarge(const Node& node, KernelInputs in) {
  const Shape& w = in[0]->shape();
  Tensor y = allocateOutput(node);
  const int64_t bigH = y.shape()[2], bigW = y.shape()[3];
  const int64_t top = (bigH - w[2]) / 2, left = (bigW - w[3]) / 2;
  const float* src = in[0]->floats().data();
  float* out = y.mutableFloats().data();
  const int64_t kernels = w[0] * w[1];
  for (int64_t k = 0; k < kernels; ++k)
    for (int64_t i = 0; i < w[2]; ++i)
      std::memcpy(out + (k * bigH + top + i) * bigW + left, src + (k * w[2] + i) * w[3], static_cast<size_t>(w[3]) * sizeof(float));
  return y;
}

// TASO's merge_gconv(w, count) turns the weight W[M, C/g, kh, kw] of a conv with g groups into
// the weight [M, count*C/g, kh, kw] of a conv over the same input with g/count groups: zeros,
// except that output channel o keeps its own C/g input channels in block b of the count blocks
// its merged group sees. Channel o belongs to original group o / (M/g), which is block
// (o / (M/g)) % count of its merged group, so
//     out[o, b*C/g + c, i, j] = W[o, c, i, j]   with b = (o / (M/g)) % count.
// TASO's kernels (cudnn/merge_gconv_kernel.cu, dnnl/merge_gconv_mkl.cc) compute
// b = o / (M/count): the same whenever g == count (all groups merged into one), but a
// different weight, which breaks the rewrite's equivalence, when g > count. The IR's
// MergeGroups therefore carries the original group count `groups` (absent: g = count, TASO's
// case), and this kernel implements the equivalence-preserving form above.
Tensor mergeGroups(const Node& node, KernelInputs in) {
  const Shape& w = in[0]->shape();
  const int64_t count = node.attrs.getInt("count", 0);
  const int64_t groups = node.attrs.getInt("groups", count);
  if (count < 1 || groups < 1 || groups % count != 0 || w[0] % groups != 0)
    kernelError("merge needs count >= 1 dividing groups, and groups dividing the output channels; got count " +
                std::to_string(count) + ", groups " + std::to_string(groups) + " for " + in[0]->type().toString());
  Tensor y = allocateOutput(node);
  const int64_t channelsPerGroup = w[0] / groups;
  const int64_t rowSize = w[1] * w[2] * w[3]; // one output channel of W
  const float* src = in[0]->floats().data();
  float* out = y.mutableFloats().data();
  for (int64_t o = 0; o < w[0]; ++o) {
    const int64_t block = (o / channelsPerGroup) % count;
    std::memcpy(out + (o * count + block) * rowSize, src + o * rowSize, static_cast<size_t>(rowSize) * sizeof(float));
  }
  return y;
}

namespace {
// BatchNorm's per-channel factor scale / sqrt(var + epsilon), computed exactly as batchNorm
// does, so that a folded conv rounds like conv followed by BatchNorm.
float batchNormFactor(float scale, float var, float epsilon) { return scale / std::sqrt(var + epsilon); }
} // namespace

// (w, scale, var){epsilon}: w[o, ...] * scale[o] / sqrt(var[o] + epsilon).
Tensor foldBatchNormWeight(const Node& node, KernelInputs in) {
  const float epsilon = node.attrs.getFloat("epsilon", 1e-5f);
  const int64_t channels = in[0]->shape()[0];
  const int64_t inner = channels == 0 ? 0 : in[0]->numel() / channels;
  const float* w = in[0]->floats().data();
  const float* scale = in[1]->floats().data();
  const float* var = in[2]->floats().data();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  for (int64_t o = 0; o < channels; ++o) {
    const float factor = batchNormFactor(scale[o], var[o], epsilon);
    for (int64_t i = 0; i < inner; ++i) out[o * inner + i] = w[o * inner + i] * factor;
  }
  return y;
}

// (scale, bias, mean, var[, convBias]){epsilon}: (convBias - mean) * factor + bias, the bias
// BatchNorm leaves after the conv; convBias is 0 when absent.
Tensor foldBatchNormBias(const Node& node, KernelInputs in) {
  const float epsilon = node.attrs.getFloat("epsilon", 1e-5f);
  const int64_t channels = in[0]->numel();
  Tensor y = allocateOutput(node);
  float* out = y.mutableFloats().data();
  for (int64_t c = 0; c < channels; ++c) {
    const float convBias = in.size() > 4 ? in[4]->floats()[static_cast<size_t>(c)] : 0.0f;
    const auto at = [c](const Tensor* t) { return t->floats()[static_cast<size_t>(c)]; };
    out[c] = (convBias - at(in[2])) * batchNormFactor(at(in[0]), at(in[3]), epsilon) + at(in[1]);
  }
  return y;
}

} // namespace tessera::interp
