// Conv with ONNX semantics on NCHW tensors: groups = C / W[1], strides, pads [t,l,b,r],
// dilations, optional bias, fused activation. Each image and group is lowered to im2col + GEMM
// (a 1x1, stride-1, unpadded conv multiplies the input in place); depthwise convolutions, whose
// GEMMs would be a single row, run as direct loops. ConvTranspose (the gradient of a conv) runs as
// a direct scatter loop.
#include "interp/FloatGemm.h"
#include "interp/Kernels.h"

#include <algorithm>

namespace tessera::interp {

namespace {

// Bounds the im2col buffer (in floats); a larger lowering proceeds a band of output rows at a time.
constexpr int64_t kColumnBudget = int64_t{1} << 22;

struct ConvGeometry {
  int64_t batch, channels, height, width;
  int64_t outChannels, groupChannels, kernelH, kernelW;
  int64_t groups, groupOutChannels;
  int64_t outH, outW;
  int64_t strideH, strideW, padTop, padLeft, dilationH, dilationW;

  int64_t patchSize() const { return groupChannels * kernelH * kernelW; }
};

ConvGeometry geometryOf(const Node& node, const Tensor& x, const Tensor& w) {
  ConvGeometry g{};
  g.batch = x.shape()[0];
  g.channels = x.shape()[1];
  g.height = x.shape()[2];
  g.width = x.shape()[3];
  g.outChannels = w.shape()[0];
  g.groupChannels = w.shape()[1];
  g.kernelH = w.shape()[2];
  g.kernelW = w.shape()[3];
  g.groups = g.channels / g.groupChannels;
  g.groupOutChannels = g.outChannels / g.groups;
  g.outH = node.outputTypes[0].shape[2];
  g.outW = node.outputTypes[0].shape[3];
  auto strides = intsOr(node, "strides", 1, 2);
  auto pads = intsOr(node, "pads", 0, 4);
  auto dilations = intsOr(node, "dilations", 1, 2);
  g.strideH = strides[0];
  g.strideW = strides[1];
  g.padTop = pads[0];
  g.padLeft = pads[1];
  g.dilationH = dilations[0];
  g.dilationW = dilations[1];
  return g;
}

bool isPointwise(const ConvGeometry& g) {
  return g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 && g.strideW == 1 && g.padTop == 0 && g.padLeft == 0 &&
         g.outH == g.height && g.outW == g.width;
}

// The im2col matrix of one image and group for output rows [oh0, oh1): row (c, i, j) holds the
// input value under kernel tap (i, j) of channel c for every output position (0 in the padding).
void im2col(const ConvGeometry& g, const float* groupImage, int64_t oh0, int64_t oh1, float* col) {
  const int64_t rows = g.patchSize();
  const int64_t cols = (oh1 - oh0) * g.outW;
  const int64_t taps = g.kernelH * g.kernelW;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (rows * cols > kParallelGrain)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t c = r / taps, i = (r % taps) / g.kernelW, j = r % g.kernelW;
    const float* plane = groupImage + c * g.height * g.width;
    for (int64_t oh = oh0; oh < oh1; ++oh) {
      float* out = col + r * cols + (oh - oh0) * g.outW;
      const int64_t ih = oh * g.strideH - g.padTop + i * g.dilationH;
      if (ih < 0 || ih >= g.height) {
        std::fill(out, out + g.outW, 0.0f);
        continue;
      }
      const float* src = plane + ih * g.width;
      for (int64_t ow = 0; ow < g.outW; ++ow) {
        const int64_t iw = ow * g.strideW - g.padLeft + j * g.dilationW;
        out[ow] = iw >= 0 && iw < g.width ? src[iw] : 0.0f;
      }
    }
  }
}

void convByGemm(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const int64_t patch = g.patchSize();
  const int64_t spatial = g.outH * g.outW;
  const bool pointwise = isPointwise(g);
  const int64_t bandRows = pointwise ? g.outH : std::clamp<int64_t>(kColumnBudget / std::max<int64_t>(1, patch * g.outW), 1, g.outH);
  std::vector<float> col(pointwise ? 0 : static_cast<size_t>(patch * bandRows * g.outW));
  for (int64_t n = 0; n < g.batch; ++n) {
    for (int64_t group = 0; group < g.groups; ++group) {
      const float* image = x + (n * g.channels + group * g.groupChannels) * g.height * g.width;
      const MatrixView weights{w + group * g.groupOutChannels * patch, patch, 1};
      float* result = y + (n * g.outChannels + group * g.groupOutChannels) * spatial;
      if (pointwise) {
        floatGemm(g.groupOutChannels, spatial, patch, 1.0f, weights, {image, spatial, 1}, 0.0f, result, spatial);
        continue;
      }
      for (int64_t oh0 = 0; oh0 < g.outH; oh0 += bandRows) {
        const int64_t oh1 = std::min(g.outH, oh0 + bandRows);
        const int64_t cols = (oh1 - oh0) * g.outW;
        im2col(g, image, oh0, oh1, col.data());
        floatGemm(g.groupOutChannels, cols, patch, 1.0f, weights, {col.data(), cols, 1}, 0.0f, result + oh0 * g.outW, spatial);
      }
    }
  }
}

// One input channel per group: each output plane is a small stencil over one input plane.
void convDepthwise(const ConvGeometry& g, const float* x, const float* w, float* y) {
  const int64_t planes = g.batch * g.outChannels;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (planes * g.outH * g.outW * g.kernelH * g.kernelW > kParallelGrain)
  for (int64_t plane = 0; plane < planes; ++plane) {
    const int64_t n = plane / g.outChannels, m = plane % g.outChannels;
    const int64_t c = m / g.groupOutChannels;
    const float* src = x + (n * g.channels + c) * g.height * g.width;
    const float* kernel = w + m * g.kernelH * g.kernelW;
    float* out = y + plane * g.outH * g.outW;
    for (int64_t oh = 0; oh < g.outH; ++oh)
      for (int64_t ow = 0; ow < g.outW; ++ow) {
        float sum = 0.0f;
        for (int64_t i = 0; i < g.kernelH; ++i) {
          const int64_t ih = oh * g.strideH - g.padTop + i * g.dilationH;
          if (ih < 0 || ih >= g.height) continue;
          for (int64_t j = 0; j < g.kernelW; ++j) {
            const int64_t iw = ow * g.strideW - g.padLeft + j * g.dilationW;
            if (iw >= 0 && iw < g.width) sum += kernel[i * g.kernelW + j] * src[ih * g.width + iw];
          }
        }
        out[oh * g.outW + ow] = sum;
      }
  }
}

} // namespace

Tensor conv(const Node& node, KernelInputs in) {
  const ConvGeometry g = geometryOf(node, *in[0], *in[1]);
  Tensor y = allocateOutput(node);
  if (y.numel() == 0) return y;
  float* out = y.mutableFloats().data();
  if (g.groupChannels == 1 && g.groups > 1)
    convDepthwise(g, in[0]->floats().data(), in[1]->floats().data(), out);
  else
    convByGemm(g, in[0]->floats().data(), in[1]->floats().data(), out);

  const float* bias = in.size() > 2 ? in[2]->floats().data() : nullptr;
  const Activation activation = activationOf(node);
  if (!bias && activation == Activation::None) return y;
  const int64_t spatial = g.outH * g.outW;
  const int64_t planes = g.batch * g.outChannels;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (planes * spatial > kParallelGrain)
  for (int64_t plane = 0; plane < planes; ++plane) {
    float* data = out + plane * spatial;
    if (bias) {
      const float b = bias[plane % g.outChannels];
      for (int64_t i = 0; i < spatial; ++i) data[i] += b;
    }
    applyActivation(activation, data, spatial);
  }
  return y;
}

// Every input pixel adds its weighted kernel into the output at stride * position - pad:
// y[n, g*Mg + m, h*s - pt + kh*d, ...] += x[n, g*Cg + c, h, w] * W[g*Cg + c, m, kh, kw].
// Each output plane (n, output channel) is filled on its own, its contributions added in the order
// (c, h, w, kh, kw) of the scatter over the whole tensor, so the sums are that scatter's to the bit
// while a plane stays in cache and the planes can be spread over threads.
Tensor convTranspose(const Node& node, KernelInputs in) {
  const Shape& x = in[0]->shape();
  const Shape& w = in[1]->shape();
  const int64_t group = node.attrs.getInt("group", 1);
  const std::vector<int64_t> strides = intsOr(node, "strides", 1, 2);
  const std::vector<int64_t> dilations = intsOr(node, "dilations", 1, 2);
  const std::vector<int64_t> pads = intsOr(node, "pads", 0, 4);
  Tensor y = allocateOutput(node);
  const Shape& o = y.shape();
  const int64_t inPerGroup = x[1] / group, outPerGroup = w[1];
  const float* src = in[0]->floats().data();
  const float* weight = in[1]->floats().data();
  float* out = y.mutableFloats().data();
  const int64_t planes = o[0] * o[1], planeSize = o[2] * o[3];
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (planes * planeSize * w[2] * w[3] > kParallelGrain)
  for (int64_t plane = 0; plane < planes; ++plane) {
    const int64_t n = plane / o[1], g = plane % o[1] / outPerGroup, m = plane % o[1] % outPerGroup;
    float* dst = out + plane * planeSize;
    for (int64_t c = g * inPerGroup; c < (g + 1) * inPerGroup; ++c) {
      const float* image = src + (n * x[1] + c) * x[2] * x[3];
      const float* kernel = weight + (c * w[1] + m) * w[2] * w[3];
      for (int64_t h = 0; h < x[2]; ++h)
        for (int64_t v = 0; v < x[3]; ++v) {
          const float value = image[h * x[3] + v];
          for (int64_t kh = 0; kh < w[2]; ++kh) {
            const int64_t oh = h * strides[0] - pads[0] + kh * dilations[0];
            if (oh < 0 || oh >= o[2]) continue;
            for (int64_t kw = 0; kw < w[3]; ++kw) {
              const int64_t ow = v * strides[1] - pads[1] + kw * dilations[1];
              if (ow < 0 || ow >= o[3]) continue;
              dst[oh * o[3] + ow] += value * kernel[kh * w[3] + kw];
            }
          }
        }
    }
    if (in.size() == 3) {
      const float bias = in[2]->floats()[static_cast<size_t>(plane % o[1])];
      for (int64_t i = 0; i < planeSize; ++i) dst[i] += bias;
    }
  }
  return y;
}

} // namespace tessera::interp
