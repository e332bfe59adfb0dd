// Ops that move elements without arithmetic: Reshape, Flatten, Squeeze, Unsqueeze, Identity and
// Dropout (inference: identity) copy; Concat, Split, Transpose, Slice (negative steps), Gather
// (negative indices) and Pad (constant, reflect, edge) follow ONNX.
#include "interp/Kernels.h"

#include <algorithm>
#include <cstring>

namespace tessera::interp {

namespace {

int64_t axisAttr(const Node& node, const char* name, int64_t fallback, int64_t rank) {
  const int64_t axis = node.attrs.getInt(name, fallback);
  return axis < 0 ? axis + rank : axis;
}

// out[o] = in[base + sum_d o_d * strides[d]] over outShape: the common core of Transpose and Slice.
void stridedCopy(const Shape& outShape, const float* in, int64_t base, const std::vector<int64_t>& strides, float* out) {
  const int64_t total = numelOf(outShape);
  if (total == 0) return;
  if (outShape.empty()) {
    out[0] = in[base];
    return;
  }
  const size_t rank = outShape.size();
  const std::vector<int64_t> outStrides = contiguousStrides(outShape);
  const int64_t inner = outShape.back(), step = strides.back();
  const int64_t rows = total / inner;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
  for (int64_t row = 0; row < rows; ++row) {
    int64_t offset = base;
    for (size_t d = 0; d + 1 < rank; ++d) offset += row * inner / outStrides[d] % outShape[d] * strides[d];
    float* dst = out + row * inner;
    for (int64_t i = 0; i < inner; ++i) dst[i] = in[offset + i * step];
  }
}

// The source coordinate of each output coordinate along one padded axis, -1 for a constant.
std::vector<int64_t> padSourceMap(int64_t size, int64_t padBegin, int64_t outSize, const std::string& mode) {
  std::vector<int64_t> map(static_cast<size_t>(outSize));
  for (int64_t o = 0; o < outSize; ++o) {
    int64_t src = o - padBegin;
    if (src < 0 || src >= size) {
      if (mode == "constant") {
        src = -1;
      } else if (mode == "edge") {
        src = std::clamp<int64_t>(src, 0, size - 1);
      } else if (size == 1) {
        src = 0; // reflect of a single element: numpy repeats it
      } else {
        // Reflect without repeating the edge, bouncing as often as needed (numpy's rule).
        const int64_t period = 2 * (size - 1);
        src = ((src % period) + period) % period;
        if (src >= size) src = period - src;
      }
    }
    map[static_cast<size_t>(o)] = src;
  }
  return map;
}

} // namespace

Tensor copyAsOutput(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  std::copy(in[0]->floats().begin(), in[0]->floats().end(), y.mutableFloats().begin());
  return y;
}

Tensor concat(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  const int64_t rank = static_cast<int64_t>(outShape.size());
  const size_t axis = static_cast<size_t>(axisAttr(node, "axis", 0, rank));
  const int64_t outer = product(outShape, 0, axis);
  const int64_t outBlock = product(outShape, axis, outShape.size());
  float* out = y.mutableFloats().data();
  int64_t offset = 0;
  for (const Tensor* input : in) {
    const int64_t block = product(input->shape(), axis, input->shape().size());
    const float* src = input->floats().data();
    for (int64_t o = 0; o < outer; ++o) std::memcpy(out + o * outBlock + offset, src + o * block, static_cast<size_t>(block) * sizeof(float));
    offset += block;
  }
  return y;
}

std::vector<Tensor> split(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const size_t axis = static_cast<size_t>(axisAttr(node, "axis", 0, static_cast<int64_t>(shape.size())));
  const int64_t outer = product(shape, 0, axis);
  const int64_t inBlock = product(shape, axis, shape.size());
  const float* src = in[0]->floats().data();
  std::vector<Tensor> outputs;
  int64_t offset = 0;
  for (int port = 0; port < node.numOutputs(); ++port) {
    Tensor y = allocateOutput(node, port);
    const int64_t block = product(y.shape(), axis, y.shape().size());
    float* out = y.mutableFloats().data();
    for (int64_t o = 0; o < outer; ++o) std::memcpy(out + o * block, src + o * inBlock + offset, static_cast<size_t>(block) * sizeof(float));
    offset += block;
    outputs.push_back(std::move(y));
  }
  return outputs;
}

Tensor transpose(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  std::vector<int64_t> perm = node.attrs.getInts("perm");
  if (perm.empty())
    for (size_t d = shape.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
  const std::vector<int64_t> inStrides = contiguousStrides(shape);
  std::vector<int64_t> strides;
  for (int64_t p : perm) strides.push_back(inStrides[static_cast<size_t>(p)]);
  Tensor y = allocateOutput(node);
  stridedCopy(y.shape(), in[0]->floats().data(), 0, strides, y.mutableFloats().data());
  return y;
}

// ONNX clamping: a positive step clamps start and end to [0, dim], a negative one to [-1, dim-1].
Tensor slice(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const int64_t rank = static_cast<int64_t>(shape.size());
  const auto starts = node.attrs.getInts("starts");
  std::vector<int64_t> axes = node.attrs.getInts("axes");
  std::vector<int64_t> steps = node.attrs.getInts("steps");
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<int64_t>(i));
  if (steps.empty()) steps.assign(starts.size(), 1);
  if (axes.size() != starts.size() || steps.size() != starts.size()) kernelError("slice starts, axes and steps differ in length");

  const std::vector<int64_t> inStrides = contiguousStrides(shape);
  std::vector<int64_t> strides = inStrides;
  int64_t base = 0;
  for (size_t i = 0; i < starts.size(); ++i) {
    const size_t axis = static_cast<size_t>(axes[i] < 0 ? axes[i] + rank : axes[i]);
    const int64_t dim = shape[axis];
    const int64_t step = steps[i];
    int64_t start = starts[i] < 0 ? starts[i] + dim : starts[i];
    start = step > 0 ? std::clamp<int64_t>(start, 0, dim) : std::clamp<int64_t>(start, -1, dim - 1);
    base += start * inStrides[axis];
    strides[axis] = step * inStrides[axis];
  }
  Tensor y = allocateOutput(node);
  stridedCopy(y.shape(), in[0]->floats().data(), base, strides, y.mutableFloats().data());
  return y;
}

Tensor gather(const Node& node, KernelInputs in) {
  const Tensor& data = *in[0];
  const Tensor& indices = *in[1];
  const Shape& shape = data.shape();
  const size_t axis = static_cast<size_t>(axisAttr(node, "axis", 0, static_cast<int64_t>(shape.size())));
  const int64_t outer = product(shape, 0, axis);
  const int64_t axisSize = shape[axis];
  const int64_t inner = product(shape, axis + 1, shape.size());
  const int64_t count = indices.numel();

  std::vector<int64_t> positions(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const int64_t index = indices.intAt(i);
    if (index < -axisSize || index >= axisSize)
      kernelError("gather index " + std::to_string(index) + " is out of range for axis " + std::to_string(axis) + " of size " +
                  std::to_string(axisSize));
    positions[static_cast<size_t>(i)] = index < 0 ? index + axisSize : index;
  }
  Tensor y = allocateOutput(node);
  const float* src = data.floats().data();
  float* out = y.mutableFloats().data();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(out + (o * count + i) * inner, src + (o * axisSize + positions[static_cast<size_t>(i)]) * inner,
                  static_cast<size_t>(inner) * sizeof(float));
  return y;
}

Tensor pad(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const size_t rank = shape.size();
  const auto pads = node.attrs.getInts("pads");
  if (pads.size() != 2 * rank) kernelError("pads needs " + std::to_string(2 * rank) + " values");
  const std::string mode = node.attrs.getString("mode", "constant");
  const float value = node.attrs.getFloat("value", 0.0f);
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  const int64_t total = y.numel();
  if (total == 0) return y;
  float* out = y.mutableFloats().data();
  if (rank == 0) {
    out[0] = in[0]->floats()[0];
    return y;
  }
  if (in[0]->numel() == 0 && mode != "constant") kernelError("cannot " + mode + "-pad an empty tensor");

  std::vector<std::vector<int64_t>> maps;
  for (size_t d = 0; d < rank; ++d) maps.push_back(padSourceMap(shape[d], pads[d], outShape[d], mode));
  const std::vector<int64_t> inStrides = contiguousStrides(shape);
  const std::vector<int64_t> outStrides = contiguousStrides(outShape);
  const float* src = in[0]->floats().data();
  const int64_t inner = outShape.back();
  const std::vector<int64_t>& innerMap = maps.back();
  const int64_t rows = total / inner;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
  for (int64_t row = 0; row < rows; ++row) {
    float* dst = out + row * inner;
    int64_t offset = 0;
    bool constantRow = false;
    for (size_t d = 0; d + 1 < rank; ++d) {
      const int64_t source = maps[d][static_cast<size_t>(row * inner / outStrides[d] % outShape[d])];
      if (source < 0) constantRow = true;
      offset += source * inStrides[d];
    }
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t source = innerMap[static_cast<size_t>(i)];
      dst[i] = constantRow || source < 0 ? value : src[offset + source];
    }
  }
  return y;
}

} // namespace tessera::interp
