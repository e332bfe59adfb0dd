// The speech models' ops: a 1-D Conv imports as Unsqueeze -> 2-D Conv -> Squeeze and exports as
// such; ONNX's LSTM imports with its absent operands as zeros, exports with its empty
// sequence_lens, and keeps its unsupported forms opaque; Silero VAD (legacy) runs whole.
#include "ModelBuilder.h"

#include "interp/Interpreter.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>

using namespace tessera;
using namespace tessera::test;
namespace fs = std::filesystem;

namespace {

std::vector<float> ramp(int64_t count, float scale) {
  std::vector<float> values(static_cast<size_t>(count));
  for (size_t i = 0; i < values.size(); ++i) values[i] = scale * static_cast<float>(static_cast<int>(i % 13) - 6);
  return values;
}

// y = Conv1d(x [1, 4, 10], w [6, 2, 3]) with group 2, stride 2, dilation 2, pads [1, 2].
ModelBuilder conv1dModel(std::vector<int64_t> pads = {1, 2}) {
  ModelBuilder b(17);
  b.input("x", {1, 4, 10});
  b.floats("w", {6, 2, 3}, ramp(36, 0.1f));
  b.floats("bias", {6}, ramp(6, 0.5f));
  onnx::NodeProto& conv = b.node("Conv", {"x", "w", "bias"}, {"y"}, "conv1d");
  setAttr(conv, "group", int64_t{2});
  setAttr(conv, "strides", std::vector<int64_t>{2});
  setAttr(conv, "dilations", std::vector<int64_t>{2});
  setAttr(conv, "pads", pads);
  b.output("y");
  return b;
}

// The 1-D convolution written out: out[m][o] = bias[m] + sum over the group's channels and taps.
std::vector<float> naiveConv1d(const std::vector<float>& x) {
  const std::vector<float> w = ramp(36, 0.1f), bias = ramp(6, 0.5f);
  const int64_t length = 10, outLength = (length + 1 + 2 - (2 * 2 + 1)) / 2 + 1;
  std::vector<float> out;
  for (int64_t m = 0; m < 6; ++m)
    for (int64_t o = 0; o < outLength; ++o) {
      double sum = bias[static_cast<size_t>(m)];
      const int64_t group = m / 3;
      for (int64_t c = 0; c < 2; ++c)
        for (int64_t k = 0; k < 3; ++k) {
          const int64_t at = o * 2 - 1 + k * 2;
          if (at < 0 || at >= length) continue;
          sum += double(w[static_cast<size_t>((m * 2 + c) * 3 + k)]) * x[static_cast<size_t>((group * 2 + c) * length + at)];
        }
      out.push_back(static_cast<float>(sum));
    }
  return out;
}

void expectClose(const Tensor& actual, const std::vector<float>& expected) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size()));
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_NEAR(actual.floatAt(static_cast<int64_t>(i)), expected[i], 1e-5) << "element " << i;
}

TEST(Conv1d, ImportsAsAUnitHeight2dConvAndComputesTheConvolution) {
  Graph graph = conv1dModel().import();
  EXPECT_EQ(countKind(graph, OpKind::Opaque), 0u);
  const Node& conv = onlyNode(graph, OpKind::Conv);
  EXPECT_EQ(graph.typeOf(conv.inputs[1]), (TensorType{DType::Float32, {6, 2, 1, 3}})); // the weight reshaped at import
  EXPECT_EQ(graph.typeOf(graph.outputs()[0].value), (TensorType{DType::Float32, {1, 6, 5}}));
  const Tensor x = Tensor::fromFloats({1, 4, 10}, ramp(40, 0.25f));
  expectClose(runGraph(graph, {{"x", x}})[0], naiveConv1d(ramp(40, 0.25f)));
}

TEST(Conv1d, ExportsAsUnsqueezeConvSqueezeAndRoundTrips) {
  Graph graph = conv1dModel().import();
  onnx::ModelProto exported;
  ASSERT_TRUE(exported.ParseFromString(onnx_io::exportOnnxBytes(graph)));
  std::vector<std::string> ops;
  for (const auto& node : exported.graph().node()) ops.push_back(node.op_type());
  EXPECT_EQ(ops, (std::vector<std::string>{"Unsqueeze", "Conv", "Squeeze"}));
  Graph again = onnx_io::importOnnxBytes(exported.SerializeAsString(), "exported.onnx");
  const Tensor x = Tensor::fromFloats({1, 4, 10}, ramp(40, 0.25f));
  expectClose(runGraph(again, {{"x", x}})[0], naiveConv1d(ramp(40, 0.25f)));
}

TEST(Conv1d, AConvWithTwoPadsPerSideOfA2dKernelIsAClearError) {
  try {
    conv1dModel({1, 1, 1, 1}).import();
    FAIL() << "imported a 1-D conv with 4 pads";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("a 1-D convolution needs 2 pads, got 4"), std::string::npos) << e.what();
  }
}

// Y, Y_h, Y_c = LSTM(x [2, 1, 3]) with hidden 2, no bias and no initial state.
ModelBuilder lstmModel(bool withClip) {
  ModelBuilder b(14);
  b.input("x", {2, 1, 3});
  b.floats("W", {1, 8, 3}, ramp(24, 0.1f));
  b.floats("R", {1, 8, 2}, ramp(16, -0.1f));
  onnx::NodeProto& lstm = b.node("LSTM", {"x", "W", "R"}, {"Y", "Y_h", "Y_c"}, "lstm");
  setAttr(lstm, "hidden_size", int64_t{2});
  if (withClip) setAttr(lstm, "clip", 0.5f);
  b.output("Y");
  b.output("Y_h");
  b.output("Y_c");
  return b;
}

TEST(Lstm, ImportsWithZeroBiasAndStateAndExportsWithAnEmptySequenceLens) {
  Graph graph = lstmModel(false).import();
  const Node& lstm = onlyNode(graph, OpKind::LSTM);
  ASSERT_EQ(lstm.inputs.size(), 7u); // P as zeros too; no sequence_lens
  EXPECT_EQ(graph.typeOf(lstm.inputs[3]), (TensorType{DType::Float32, {1, 16}}));
  EXPECT_EQ(graph.typeOf(lstm.inputs[4]), (TensorType{DType::Float32, {1, 1, 2}}));
  const Tensor x = Tensor::fromFloats({2, 1, 3}, ramp(6, 0.3f));
  std::vector<Tensor> before = runGraph(graph, {{"x", x}});

  onnx::ModelProto exported;
  ASSERT_TRUE(exported.ParseFromString(onnx_io::exportOnnxBytes(graph)));
  const onnx::NodeProto* written = nullptr;
  for (const auto& node : exported.graph().node())
    if (node.op_type() == "LSTM") written = &node;
  ASSERT_NE(written, nullptr);
  ASSERT_EQ(written->input_size(), 8);
  EXPECT_EQ(written->input(4), "");
  EXPECT_EQ(written->output_size(), 3);
  Graph again = onnx_io::importOnnxBytes(exported.SerializeAsString(), "exported.onnx");
  std::vector<Tensor> after = runGraph(again, {{"x", x}});
  ASSERT_EQ(before.size(), 3u);
  ASSERT_EQ(after.size(), 3u);
  for (size_t i = 0; i < 3; ++i) expectClose(after[i], std::vector<float>(before[i].floats().begin(), before[i].floats().end()));
}

TEST(Lstm, AFormTheInterpreterLacksStaysOpaque) {
  Graph graph = lstmModel(true).import(); // clip
  EXPECT_EQ(countKind(graph, OpKind::LSTM), 0u);
  EXPECT_EQ(countKind(graph, OpKind::Opaque), 1u);
}

TEST(SileroVad, LegacyWithItsSampleRateBoundHasNoOpaqueOpAndRunsToFiniteOutputs) {
  const fs::path model = fs::path(TESSERA_SOURCE_DIR) / "samples/real/silero_vad_legacy.onnx";
  if (!fs::exists(model)) GTEST_SKIP() << "samples/real/silero_vad_legacy.onnx is not fetched";
  onnx_io::ShapeBindings shapes;
  shapes.inputShapes = {{"input", {1, 512}}, {"h", {2, 1, 64}}, {"c", {2, 1, 64}}};
  Graph graph = onnx_io::importOnnxFile(model.string(), shapes, {{"sr", Tensor::fromInts({DType::Int64, {}}, {16000})}});
  EXPECT_EQ(countKind(graph, OpKind::Opaque), 0u);
  EXPECT_GE(countKind(graph, OpKind::LSTM), 2u);
  std::vector<float> audio(512);
  for (size_t i = 0; i < audio.size(); ++i) audio[i] = 0.3f * std::sin(0.05f * static_cast<float>(i));
  const Tensor state = Tensor::zeros({DType::Float32, {2, 1, 64}});
  std::vector<Tensor> outputs = runGraph(graph, {{"input", Tensor::fromFloats({1, 512}, audio)}, {"h", state}, {"c", state}});
  ASSERT_EQ(outputs.size(), graph.outputs().size());
  for (const Tensor& output : outputs)
    for (int64_t i = 0; i < output.numel(); ++i) ASSERT_TRUE(std::isfinite(output.valueAt(i))) << "element " << i;
  // What ONNX Runtime 1.30 computes from the original file (its If on sr, all optimisations) on an
  // input both sides hold bit for bit: ((37 i mod 101) - 50) / 256. On a sine computed in each
  // language the outputs differ by 0.2 %: the spectrum's logarithm amplifies an ulp of input.
  // (Checked with onnxruntime-node, 2026-11-28, where the exported graph's 117 intermediate
  // tensors also came within 3e-7 of the interpreter's.)
  std::vector<float> exact(512);
  for (size_t i = 0; i < exact.size(); ++i) exact[i] = static_cast<float>(static_cast<int>((i * 37) % 101) - 50) / 256.0f;
  const Tensor ortChecked = runGraph(graph, {{"input", Tensor::fromFloats({1, 512}, exact)}, {"h", state}, {"c", state}}).at(0);
  EXPECT_NEAR(ortChecked.floatAt(0), 0.04755798f, 1e-6f);

  // The export (sr bound: no If left) reads back to the same function.
  const std::string exported = onnx_io::exportOnnxBytes(graph);
  std::printf("export written to %s\n", writeTempFile("silero_vad_legacy_sr16000.onnx", exported).c_str());
  Graph again = onnx_io::importOnnxBytes(exported, "exported.onnx");
  EXPECT_EQ(countKind(again, OpKind::LSTM), countKind(graph, OpKind::LSTM));
  std::vector<Tensor> rerun = runGraph(again, {{"input", Tensor::fromFloats({1, 512}, audio)}, {"h", state}, {"c", state}});
  ASSERT_EQ(rerun.size(), outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i)
    expectClose(rerun[i], std::vector<float>(outputs[i].floats().begin(), outputs[i].floats().end()));
}

TEST(SileroVad, V5WithItsSampleRateBoundExportsAndReadsBackToTheSameFunction) {
  const fs::path model = fs::path(TESSERA_SOURCE_DIR) / "samples/real/silero_vad_v5.onnx";
  if (!fs::exists(model)) GTEST_SKIP() << "samples/real/silero_vad_v5.onnx is not fetched";
  onnx_io::ShapeBindings shapes;
  shapes.inputShapes = {{"input", {1, 512}}, {"state", {2, 1, 128}}};
  Graph graph = onnx_io::importOnnxFile(model.string(), shapes, {{"sr", Tensor::fromInts({DType::Int64, {}}, {16000})}});
  EXPECT_EQ(countKind(graph, OpKind::Opaque), 0u);
  std::vector<float> audio(512);
  for (size_t i = 0; i < audio.size(); ++i) audio[i] = 0.3f * std::sin(0.05f * static_cast<float>(i));
  const TensorMap inputs{{"input", Tensor::fromFloats({1, 512}, audio)}, {"state", Tensor::zeros({DType::Float32, {2, 1, 128}})}};
  std::vector<Tensor> outputs = runGraph(graph, inputs);
  const std::string exported = onnx_io::exportOnnxBytes(graph);
  std::printf("export written to %s\n", writeTempFile("silero_vad_v5_sr16000.onnx", exported).c_str());
  std::vector<Tensor> rerun = runGraph(onnx_io::importOnnxBytes(exported, "exported.onnx"), inputs);
  ASSERT_EQ(rerun.size(), outputs.size());
  for (size_t i = 0; i < outputs.size(); ++i)
    expectClose(rerun[i], std::vector<float>(outputs[i].floats().begin(), outputs[i].floats().end()));
  // What ONNX Runtime gives the original model (sr = 16000) and the export on this input.
  EXPECT_NEAR(outputs[0].floatAt(0), 0.170031f, 2e-6);
}

} // namespace
