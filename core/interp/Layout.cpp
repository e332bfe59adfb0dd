// Ops that move elements without arithmetic, on floats or integers alike: Reshape, Flatten,
// Squeeze, Unsqueeze, Identity and Dropout (inference: identity) copy; Concat, Split, Transpose,
// Slice (negative steps), Gather (negative indices), Pad (constant, reflect, edge), Expand, Tile,
// Trilu, DepthToSpace and SpaceToDepth follow ONNX.
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
template <class T>
void stridedCopy(const Shape& outShape, const T* in, int64_t base, const std::vector<int64_t>& strides, T* out) {
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
    T* dst = out + row * inner;
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

template <class T> Tensor concatOf(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  const int64_t rank = static_cast<int64_t>(outShape.size());
  const size_t axis = static_cast<size_t>(axisAttr(node, "axis", 0, rank));
  const int64_t outer = product(outShape, 0, axis);
  const int64_t outBlock = product(outShape, axis, outShape.size());
  T* out = y.mutableValues<T>().data();
  int64_t offset = 0;
  for (const Tensor* input : in) {
    const int64_t block = product(input->shape(), axis, input->shape().size());
    const T* src = input->values<T>().data();
    // An empty input's data() may be null, which memcpy may not be given even for zero bytes.
    if (block > 0)
      for (int64_t o = 0; o < outer; ++o) std::memcpy(out + o * outBlock + offset, src + o * block, static_cast<size_t>(block) * sizeof(T));
    offset += block;
  }
  return y;
}

template <class T> std::vector<Tensor> splitOf(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const size_t axis = static_cast<size_t>(axisAttr(node, "axis", 0, static_cast<int64_t>(shape.size())));
  const int64_t outer = product(shape, 0, axis);
  const int64_t inBlock = product(shape, axis, shape.size());
  const T* src = in[0]->values<T>().data();
  std::vector<Tensor> outputs;
  int64_t offset = 0;
  for (int port = 0; port < node.numOutputs(); ++port) {
    Tensor y = allocateOutput(node, port);
    const int64_t block = product(y.shape(), axis, y.shape().size());
    T* out = y.mutableValues<T>().data();
    // An empty output's data() may be null, which memcpy may not be given even for zero bytes.
    if (block > 0)
      for (int64_t o = 0; o < outer; ++o) std::memcpy(out + o * block, src + o * inBlock + offset, static_cast<size_t>(block) * sizeof(T));
    offset += block;
    outputs.push_back(std::move(y));
  }
  return outputs;
}

template <class T> Tensor transposeOf(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  std::vector<int64_t> perm = node.attrs.getInts("perm");
  if (perm.empty())
    for (size_t d = shape.size(); d-- > 0;) perm.push_back(static_cast<int64_t>(d));
  const std::vector<int64_t> inStrides = contiguousStrides(shape);
  std::vector<int64_t> strides;
  for (int64_t p : perm) strides.push_back(inStrides[static_cast<size_t>(p)]);
  Tensor y = allocateOutput(node);
  stridedCopy(y.shape(), in[0]->values<T>().data(), 0, strides, y.mutableValues<T>().data());
  return y;
}

// ONNX clamping: a positive step clamps start and end to [0, dim], a negative one to [-1, dim-1].
template <class T> Tensor sliceOf(const Node& node, KernelInputs in) {
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
  stridedCopy(y.shape(), in[0]->values<T>().data(), base, strides, y.mutableValues<T>().data());
  return y;
}

template <class T> Tensor gatherOf(const Node& node, KernelInputs in) {
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
  const T* src = data.values<T>().data();
  T* out = y.mutableValues<T>().data();
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(out + (o * count + i) * inner, src + (o * axisSize + positions[static_cast<size_t>(i)]) * inner,
                  static_cast<size_t>(inner) * sizeof(T));
  return y;
}

template <class T> Tensor padOf(const Node& node, KernelInputs in) {
  const Shape& shape = in[0]->shape();
  const size_t rank = shape.size();
  const auto pads = node.attrs.getInts("pads");
  if (pads.size() != 2 * rank) kernelError("pads needs " + std::to_string(2 * rank) + " values");
  const std::string mode = node.attrs.getString("mode", "constant");
  const T value = static_cast<T>(node.attrs.getFloat("value", 0.0f));
  Tensor y = allocateOutput(node);
  const Shape& outShape = y.shape();
  const int64_t total = y.numel();
  if (total == 0) return y;
  T* out = y.mutableValues<T>().data();
  if (rank == 0) {
    out[0] = in[0]->values<T>()[0];
    return y;
  }
  if (in[0]->numel() == 0 && mode != "constant") kernelError("cannot " + mode + "-pad an empty tensor");

  std::vector<std::vector<int64_t>> maps;
  for (size_t d = 0; d < rank; ++d) maps.push_back(padSourceMap(shape[d], pads[d], outShape[d], mode));
  const std::vector<int64_t> inStrides = contiguousStrides(shape);
  const std::vector<int64_t> outStrides = contiguousStrides(outShape);
  const T* src = in[0]->values<T>().data();
  const int64_t inner = outShape.back();
  const std::vector<int64_t>& innerMap = maps.back();
  const int64_t rows = total / inner;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (total > kParallelGrain)
  for (int64_t row = 0; row < rows; ++row) {
    T* dst = out + row * inner;
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

// Expand reads its input with broadcast strides.
template <class T> Tensor expandOf(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  stridedCopy(y.shape(), in[0]->values<T>().data(), 0, broadcastStrides(in[0]->shape(), y.shape()), y.mutableValues<T>().data());
  return y;
}

template <class T> Tensor tileOf(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Shape& shape = in[0]->shape();
  const Shape& outShape = y.shape();
  const std::vector<int64_t> inStrides = contiguousStrides(shape), outStrides = contiguousStrides(outShape);
  const T* src = in[0]->values<T>().data();
  T* out = y.mutableValues<T>().data();
  for (int64_t i = 0; i < y.numel(); ++i) {
    int64_t offset = 0;
    for (size_t d = 0; d < outShape.size(); ++d) offset += i / outStrides[d] % outShape[d] % shape[d] * inStrides[d];
    out[i] = src[offset];
  }
  return y;
}

// Keeps element (r, c) of each matrix when c - r >= k (upper) or c - r <= k (lower).
template <class T> Tensor triluOf(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  const Shape& shape = y.shape();
  const int64_t rows = shape[shape.size() - 2], columns = shape.back();
  const bool upper = node.attrs.getInt("upper", 1) != 0;
  const int64_t k = node.attrs.getInt("k", 0);
  const T* src = in[0]->values<T>().data();
  T* out = y.mutableValues<T>().data();
  for (int64_t i = 0; i < y.numel(); ++i) {
    const int64_t r = i / columns % rows, c = i % columns;
    const bool kept = upper ? c - r >= k : c - r <= k;
    out[i] = kept ? src[i] : T{0};
  }
  return y;
}

// DepthToSpace and SpaceToDepth are a transpose of a 6-D view of the input.
template <class T> Tensor depthSpaceOf(const Node& node, KernelInputs in) {
  const Shape& x = in[0]->shape();
  const int64_t b = node.attrs.getInt("blocksize", 1);
  Shape view;
  std::vector<size_t> perm;
  if (node.kind == OpKind::SpaceToDepth) {
    view = {x[0], x[1], x[2] / b, b, x[3] / b, b};
    perm = {0, 3, 5, 1, 2, 4};
  } else if (node.attrs.getString("mode", "DCR") == "CRD") {
    view = {x[0], x[1] / (b * b), b, b, x[2], x[3]};
    perm = {0, 1, 4, 2, 5, 3};
  } else {
    view = {x[0], b, b, x[1] / (b * b), x[2], x[3]};
    perm = {0, 3, 4, 1, 5, 2};
  }
  const std::vector<int64_t> viewStrides = contiguousStrides(view);
  Shape permuted;
  std::vector<int64_t> strides;
  for (size_t p : perm) {
    permuted.push_back(view[p]);
    strides.push_back(viewStrides[p]);
  }
  Tensor y = allocateOutput(node);
  stridedCopy(permuted, in[0]->values<T>().data(), 0, strides, y.mutableValues<T>().data());
  return y;
}

} // namespace

Tensor copyAsOutput(const Node& node, KernelInputs in) {
  Tensor y = allocateOutput(node);
  withElementType(y, [&](auto zero) {
    using T = decltype(zero);
    std::copy(in[0]->values<T>().begin(), in[0]->values<T>().end(), y.mutableValues<T>().begin());
    return 0;
  });
  return y;
}

// Each kernel runs on the storage of its data input.
#define TESSERA_LAYOUT_KERNEL(name) \
  Tensor name(const Node& node, KernelInputs in) { \
    return withElementType(*in[0], [&](auto zero) { return name##Of<decltype(zero)>(node, in); }); \
  }
TESSERA_LAYOUT_KERNEL(concat)
TESSERA_LAYOUT_KERNEL(transpose)
TESSERA_LAYOUT_KERNEL(slice)
TESSERA_LAYOUT_KERNEL(gather)
TESSERA_LAYOUT_KERNEL(pad)
TESSERA_LAYOUT_KERNEL(expand)
TESSERA_LAYOUT_KERNEL(tile)
TESSERA_LAYOUT_KERNEL(trilu)
TESSERA_LAYOUT_KERNEL(depthSpace)
#undef TESSERA_LAYOUT_KERNEL

std::vector<Tensor> split(const Node& node, KernelInputs in) {
  return withElementType(*in[0], [&](auto zero) { return splitOf<decltype(zero)>(node, in); });
}

} // namespace tessera::interp
