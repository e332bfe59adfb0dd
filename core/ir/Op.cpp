#include "ir/Op.h"

#include "support/SplitText.h"

#include <array>

namespace tessera {

namespace {
constexpr std::array kOpTable = {
#define TESSERA_OP(kind, tensat, onnx, minIn, maxIn, outs, category, onnxAttrs) \
  OpInfo{OpKind::kind, #kind, tensat, onnx, minIn, maxIn, outs, OpCategory::category, onnxAttrs},
#include "ir/Ops.def"
#undef TESSERA_OP
};
} // namespace

const OpInfo& opInfo(OpKind kind) { return kOpTable[static_cast<size_t>(kind)]; }

std::vector<std::string_view> onnxAttributeNames(OpKind kind) { return splitWords(opInfo(kind).onnxAttributes, ' '); }

int opCount() { return static_cast<int>(kOpTable.size()); }

bool isDataView(OpKind kind) {
  switch (kind) {
  case OpKind::Reshape:
  case OpKind::Flatten:
  case OpKind::Squeeze:
  case OpKind::Unsqueeze:
  case OpKind::Identity:
  case OpKind::Dropout: return true;
  default: return false;
  }
}

std::string_view categoryName(OpCategory category) {
  switch (category) {
  case OpCategory::Source: return "source";
  case OpCategory::Opaque: return "opaque";
  case OpCategory::Conv: return "conv";
  case OpCategory::Linear: return "linear";
  case OpCategory::Normalization: return "normalization";
  case OpCategory::Activation: return "activation";
  case OpCategory::Elementwise: return "elementwise";
  case OpCategory::Pool: return "pool";
  case OpCategory::Reduce: return "reduce";
  case OpCategory::Layout: return "layout";
  case OpCategory::Misc: return "misc";
  }
  return "?";
}

std::optional<OpKind> opFromOnnx(std::string_view onnxOpType) {
  for (const OpInfo& info : kOpTable)
    if (!info.onnxName.empty() && info.onnxName == onnxOpType) return info.kind;
  return std::nullopt;
}

std::optional<OpKind> opFromTensat(std::string_view tensatName) {
  for (const OpInfo& info : kOpTable)
    if (!info.tensatName.empty() && info.tensatName == tensatName) return info.kind;
  return std::nullopt;
}

std::optional<OpKind> opFromName(std::string_view name) {
  for (const OpInfo& info : kOpTable)
    if (info.name == name) return info.kind;
  return std::nullopt;
}

} // namespace tessera
