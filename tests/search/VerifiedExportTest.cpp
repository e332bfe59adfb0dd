// What optimize reports as verified is the file it wrote: writers that lose the meaning of a
// graph (weights precomputed under new names, bytes that are no model) fail verification even
// though the in-memory graph passes.
#include "interp/Interpreter.h"
#include "onnx/OnnxExport.h"
#include "search/VerifiedExport.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }
using Ints = std::vector<int64_t>;

Tensor ramp(Shape shape, float scale) {
  std::vector<float> values(static_cast<size_t>(numelOf(shape)));
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.5f + scale * static_cast<float>(static_cast<int>(i % 7) - 3);
  return Tensor::fromFloats(std::move(shape), std::move(values));
}

// conv -> BatchNorm, and the same with the batchnorm folded into the conv's weight and bias.
struct ConvBatchNorm {
  Graph original, folded;
  NodeId foldedWeight = 0, foldedBias = 0;

  ConvBatchNorm() {
    for (Graph* g : {&original, &folded}) {
      ValueRef x{g->addInput("x", f32({1, 2, 5, 5}))};
      ValueRef w{g->addWeight("w", ramp({3, 2, 3, 3}, 0.1f))};
      ValueRef scale{g->addWeight("scale", ramp({3}, 0.2f))}, bias{g->addWeight("bias", ramp({3}, 0.1f))};
      ValueRef mean{g->addWeight("mean", ramp({3}, 0.05f))}, var{g->addWeight("var", ramp({3}, 0.1f))};
      const Attributes pads{{"pads", Ints{1, 1, 1, 1}}};
      if (g == &original) {
        ValueRef conv{g->addNode(OpKind::Conv, {x, w}, pads)};
        g->addOutput({g->addNode(OpKind::BatchNorm, {conv, scale, bias, mean, var}, {{"epsilon", 1e-5f}})}, "y");
        continue;
      }
      foldedWeight = g->addNode(OpKind::FoldBatchNormWeight, {w, scale, var}, {{"epsilon", 1e-5f}});
      foldedBias = g->addNode(OpKind::FoldBatchNormBias, {scale, bias, mean, var}, {{"epsilon", 1e-5f}});
      g->addOutput({g->addNode(OpKind::Conv, {x, {foldedWeight, 0}, {foldedBias, 0}}, pads)}, "y");
    }
  }

  // The writer Tessera used to have: folds computed from the graph's own weights and written as
  // initializers under new names, where the same weights by name cannot reach them.
  Graph precomputed() const {
    const auto value = [&](NodeId id) {
      std::vector<Tensor> inputs;
      for (const ValueRef& in : folded.node(id).inputs) inputs.push_back(folded.node(in.node).weight->materialized());
      std::vector<const Tensor*> pointers;
      for (const Tensor& t : inputs) pointers.push_back(&t);
      return evaluateNode(folded.node(id), pointers).at(0);
    };
    Graph g;
    ValueRef x{g.addInput("x", f32({1, 2, 5, 5}))};
    ValueRef w{g.addWeight("w_folded", value(foldedWeight))}, b{g.addWeight("b_folded", value(foldedBias))};
    g.addOutput({g.addNode(OpKind::Conv, {x, w, b}, {{"pads", Ints{1, 1, 1, 1}}})}, "y");
    return g;
  }
};

SearchResult resultWith(const Graph& best) {
  SearchResult result;
  result.best = best;
  return result;
}

std::string tempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tessera-verified-export-" + std::to_string(::getpid()) + "-" + name)).string();
}

} // namespace

TEST(VerifiedExport, TheWrittenFileIsReadBackAndVerified) {
  ConvBatchNorm models;
  SearchResult result = resultWith(models.folded);
  const std::string path = tempPath("good.onnx");
  writeVerifiedResult(models.original, result, path, 2, 1);
  EXPECT_TRUE(result.verificationRun);
  EXPECT_TRUE(result.verified) << result.verifyProblem;
  EXPECT_TRUE(std::filesystem::exists(path));
}

TEST(VerifiedExport, AWriterThatPrecomputesWeightsUnderNewNamesIsCaught) {
  ConvBatchNorm models;
  // The in-memory graph is right: checking it, as optimize once did, passes.
  SearchResult inMemory = resultWith(models.folded);
  verifySearchResult(models.original, inMemory, 2, 1);
  ASSERT_TRUE(inMemory.verified) << inMemory.verifyProblem;

  const Graph buggy = models.precomputed();
  SearchResult result = resultWith(models.folded);
  writeVerifiedResult(models.original, result, tempPath("precomputed.onnx"), 2, 1,
                      [&](const Graph&, const std::string& path) { onnx_io::exportOnnxFile(buggy, path); });
  EXPECT_TRUE(result.verificationRun);
  EXPECT_FALSE(result.verified);
  EXPECT_NE(result.verifyProblem.find("output 0 (y)"), std::string::npos) << result.verifyProblem;
}

TEST(VerifiedExport, AFileThatIsNoModelFailsVerificationNamingTheProblem) {
  ConvBatchNorm models;
  SearchResult result = resultWith(models.folded);
  writeVerifiedResult(models.original, result, tempPath("garbage.onnx"), 1, 1,
                      [](const Graph&, const std::string& path) { std::ofstream(path, std::ios::binary) << "not a model"; });
  EXPECT_TRUE(result.verificationRun);
  EXPECT_FALSE(result.verified);
  EXPECT_NE(result.verifyProblem.find("cannot be read back"), std::string::npos) << result.verifyProblem;
}

TEST(VerifiedExport, AWriterThatFailsIsAnError) {
  ConvBatchNorm models;
  SearchResult result = resultWith(models.folded);
  EXPECT_THROW(writeVerifiedResult(models.original, result, tempPath("x.onnx"), 1, 1,
                                   [](const Graph&, const std::string& path) { throw Error(path + ": disk full"); }),
               Error);
  EXPECT_FALSE(result.verificationRun);
}
