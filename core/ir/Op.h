// Op kinds and their static facts, generated from the one table in Ops.def.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tessera {

enum class OpKind : uint16_t {
#define TESSERA_OP(kind, tensat, onnx, minIn, maxIn, outs, category, onnxAttrs) kind,
#include "ir/Ops.def"
#undef TESSERA_OP
};

// Broad families, used for colours, heat maps and cost formulas.
enum class OpCategory : uint8_t { Source, Opaque, Conv, Linear, Normalization, Activation, Elementwise, Pool, Reduce, Layout, Misc };

struct OpInfo {
  OpKind kind;
  std::string_view name;      // Tessera's own name, e.g. "Conv"
  std::string_view tensatName;
  std::string_view onnxName;
  int minInputs;
  int maxInputs;   // -1: variadic
  int numOutputs;  // -1: decided by attributes (Split) or the node itself (Opaque)
  OpCategory category;
  std::string_view onnxAttributes; // space-separated; see Ops.def
};

const OpInfo& opInfo(OpKind kind);
inline std::string_view opName(OpKind kind) { return opInfo(kind).name; }
std::string_view categoryName(OpCategory category);
// The ONNX attributes the IR keeps unchanged for this op (Ops.def's last column), in order.
std::vector<std::string_view> onnxAttributeNames(OpKind kind);
int opCount();
// Ops whose output is their input's data unchanged (another shape at most): Reshape, Flatten,
// Squeeze, Unsqueeze, Identity and inference-time Dropout. Executors let them share its buffer.
bool isDataView(OpKind kind);

std::optional<OpKind> opFromOnnx(std::string_view onnxOpType);
std::optional<OpKind> opFromTensat(std::string_view tensatName);
std::optional<OpKind> opFromName(std::string_view name);

} // namespace tessera
