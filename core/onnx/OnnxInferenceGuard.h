// Which nodes libonnx 1.12's shape inference may be run on. Its inference functions trust the
// node: several index past a tensor's rank or divide by a zero stride on malformed input and
// crash the process (found by fuzzing; see also onnx/onnx issues 6180, 6185, 6981). Nodes that
// fail these checks are typed from the model's declarations only.
#pragma once

#include "onnx/OnnxShapeInference.h"

#include <onnx/onnx_pb.h>

#include <vector>

namespace tessera::onnx_io {

// True when `node` (of the default domain, at `opset`) matches its libonnx schema (input and
// output counts, required inputs present, attributes of the declared types) and, for the op
// families whose inference indexes dimensions, its inputs have the ranks it assumes.
bool safeForOnnxInference(const onnx::NodeProto& node, const std::vector<InferenceInput>& inputs, int64_t opset);

} // namespace tessera::onnx_io
