#include "ir/CanonicalAttributes.h"

#include "ir/ShapeInference.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tessera {

namespace {

using Ints = std::vector<int64_t>;

bool allEqual(const Ints& values, int64_t value) {
  return std::all_of(values.begin(), values.end(), [&](int64_t v) { return v == value; });
}

void dropIfInts(Attributes& attrs, const char* name, int64_t value) {
  if (attrs.has(name) && allEqual(attrs.getInts(name), value)) attrs.erase(name);
}

void dropIfInt(Attributes& attrs, const char* name, int64_t value) {
  if (attrs.has(name) && attrs.getInt(name, value) == value) attrs.erase(name);
}

void dropIfFloat(Attributes& attrs, const char* name, float value) {
  if (attrs.has(name) && attrs.getFloat(name, value) == value) attrs.erase(name);
}

void normalizeAxisAttr(Attributes& attrs, const char* name, int64_t fallback, int64_t rank) {
  attrs.set(name, normalizeAxis(attrs.getInt(name, fallback), rank));
}

void normalizeAxesAttr(Attributes& attrs, const char* name, int64_t rank) {
  Ints axes = attrs.getInts(name);
  for (int64_t& axis : axes) axis = normalizeAxis(axis, rank);
  std::sort(axes.begin(), axes.end());
  attrs.set(name, axes);
}

} // namespace

Attributes canonicalAttributes(OpKind kind, const Attributes& original, std::span<const TensorType> in) {
  Attributes attrs = original;
  int64_t rank = in.empty() ? 0 : in[0].rank();
  switch (kind) {
  case OpKind::Conv:
    attrs.erase("kernel_shape");
    attrs.erase("group");
    attrs.erase("auto_pad");
    dropIfInts(attrs, "strides", 1);
    dropIfInts(attrs, "dilations", 1);
    dropIfInts(attrs, "pads", 0);
    dropIfInt(attrs, "activation", 0);
    break;
  case OpKind::MatMul: dropIfInt(attrs, "activation", 0); break;
  case OpKind::ConvTranspose:
    dropIfInts(attrs, "strides", 1);
    dropIfInts(attrs, "dilations", 1);
    dropIfInts(attrs, "pads", 0);
    dropIfInts(attrs, "output_padding", 0);
    dropIfInt(attrs, "group", 1);
    break;
  case OpKind::InstanceNorm: dropIfFloat(attrs, "epsilon", 1e-5f); break;
  case OpKind::MaxPool:
  case OpKind::AveragePool:
    attrs.erase("auto_pad");
    dropIfInts(attrs, "strides", 1);
    dropIfInts(attrs, "dilations", 1);
    dropIfInts(attrs, "pads", 0);
    dropIfInt(attrs, "ceil_mode", 0);
    dropIfInt(attrs, "count_include_pad", 0);
    dropIfInt(attrs, "storage_order", 0);
    break;
  case OpKind::Gemm:
    dropIfFloat(attrs, "alpha", 1.0f);
    dropIfFloat(attrs, "beta", 1.0f);
    dropIfInt(attrs, "transA", 0);
    dropIfInt(attrs, "transB", 0);
    break;
  case OpKind::FoldBatchNormWeight:
  case OpKind::FoldBatchNormBias:
  case OpKind::BatchNorm:
    attrs.erase("momentum");
    attrs.erase("spatial");
    attrs.erase("training_mode");
    dropIfFloat(attrs, "epsilon", 1e-5f);
    break;
  case OpKind::LayerNorm:
    normalizeAxisAttr(attrs, "axis", -1, rank);
    dropIfFloat(attrs, "epsilon", 1e-5f);
    attrs.erase("stash_type");
    break;
  case OpKind::LRN:
  case OpKind::LrnDenominator:
    dropIfFloat(attrs, "alpha", 1e-4f);
    dropIfFloat(attrs, "beta", 0.75f);
    dropIfFloat(attrs, "bias", 1.0f);
    break;
  case OpKind::Softmax:
  case OpKind::LogSoftmax:
  case OpKind::Hardmax: normalizeAxisAttr(attrs, "axis", -1, rank); break;
  case OpKind::ArgMax:
  case OpKind::ArgMin:
    normalizeAxisAttr(attrs, "axis", 0, rank);
    dropIfInt(attrs, "keepdims", 1);
    dropIfInt(attrs, "select_last_index", 0);
    break;
  case OpKind::CumSum:
    normalizeAxisAttr(attrs, "axis", 0, rank);
    dropIfInt(attrs, "exclusive", 0);
    dropIfInt(attrs, "reverse", 0);
    break;
  case OpKind::Trilu:
    dropIfInt(attrs, "upper", 1);
    dropIfInt(attrs, "k", 0);
    break;
  case OpKind::Mod: dropIfInt(attrs, "fmod", 0); break;
  case OpKind::Expand:
    // The static target replaces the requested shape, which may be smaller than the input.
    attrs.set("shape", inferOutputTypes(kind, original, in)[0].shape);
    break;
  case OpKind::Concat:
  case OpKind::Split: normalizeAxisAttr(attrs, "axis", 0, rank); break;
  case OpKind::Gather:
    normalizeAxisAttr(attrs, "axis", 0, rank);
    dropIfInt(attrs, "axis", 0);
    break;
  case OpKind::Flatten: {
    int64_t axis = attrs.getInt("axis", 1);
    attrs.set("axis", axis < 0 ? axis + rank : axis);
    dropIfInt(attrs, "axis", 1);
    break;
  }
  case OpKind::Transpose:
    if (!attrs.has("perm")) {
      Ints perm(static_cast<size_t>(rank));
      std::iota(perm.rbegin(), perm.rend(), 0);
      attrs.set("perm", perm);
    }
    break;
  case OpKind::Reshape: {
    // The static target replaces 0 and -1 entries; a 0 left in it is an empty dimension, which
    // only allowzero keeps from reading as "copy the input's".
    const Shape target = inferOutputTypes(kind, original, in)[0].shape;
    attrs.set("shape", target);
    if (std::find(target.begin(), target.end(), 0) != target.end())
      attrs.set("allowzero", int64_t{1});
    else
      attrs.erase("allowzero");
    break;
  }
  case OpKind::Unsqueeze:
    normalizeAxesAttr(attrs, "axes", rank + static_cast<int64_t>(attrs.getInts("axes").size()));
    break;
  case OpKind::Squeeze:
    if (attrs.getInts("axes").empty()) {
      Ints axes;
      for (int64_t d = 0; d < rank; ++d)
        if (in[0].shape[d] == 1) axes.push_back(d);
      attrs.set("axes", axes);
    }
    normalizeAxesAttr(attrs, "axes", rank);
    break;
  case OpKind::ReduceMean:
  case OpKind::ReduceSum:
  case OpKind::ReduceMax:
  case OpKind::ReduceMin:
  case OpKind::ReduceProd:
  case OpKind::ReduceL1:
  case OpKind::ReduceL2:
  case OpKind::ReduceLogSum:
  case OpKind::ReduceLogSumExp:
  case OpKind::ReduceSumSquare:
    if (!attrs.getInts("axes").empty()) normalizeAxesAttr(attrs, "axes", rank);
    dropIfInt(attrs, "keepdims", 1);
    attrs.erase("noop_with_empty_axes");
    break;
  case OpKind::Pad:
    if (attrs.getString("mode", "constant") == "constant") attrs.erase("mode");
    dropIfFloat(attrs, "value", 0.0f);
    break;
  case OpKind::Clip:
    dropIfFloat(attrs, "min", -std::numeric_limits<float>::infinity());
    dropIfFloat(attrs, "max", std::numeric_limits<float>::infinity());
    break;
  case OpKind::Gelu:
    if (attrs.getString("approximate", "none") == "none") attrs.erase("approximate");
    break;
  case OpKind::Dropout: attrs = Attributes{}; break;
  default: break;
  }
  return attrs;
}

} // namespace tessera
