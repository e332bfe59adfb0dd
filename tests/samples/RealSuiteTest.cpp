// The real-model suite (samples/real/suite.json): a model of each kind the suite promises, each
// importing at its documented shapes and surviving the whole path a user takes (optimise, verify,
// export, import the export, verify again); and a malformed manifest named in its error.
#include "suite/RealSuite.h"

#include "cost/CostModel.h"
#include "events/Control.h"
#include "interp/Verify.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <unistd.h>

namespace tessera {
namespace {

std::vector<std::string> suiteNames(bool includeControlFlow) {
  std::vector<std::string> names;
  for (const RealSuiteModel& model : realSuiteModels(includeControlFlow)) names.push_back(model.name);
  return names;
}

TEST(RealSuite, HoldsADetectorATextTransformerAnOcrModelAndAMobileCnn) {
  std::set<std::string> kinds;
  for (const RealSuiteModel& model : realSuiteModels()) {
    kinds.insert(model.kind);
    EXPECT_FALSE(model.controlFlow) << model.name;
    EXPECT_FALSE(model.source.empty()) << model.name;
    EXPECT_FALSE(model.licence.empty()) << model.name;
  }
  for (const char* kind : {"detector", "text-transformer", "ocr", "mobile-cnn"}) EXPECT_TRUE(kinds.count(kind)) << kind;
  std::vector<RealSuiteModel> all = realSuiteModels(true);
  EXPECT_TRUE(std::any_of(all.begin(), all.end(), [](const RealSuiteModel& m) { return m.controlFlow && m.kind == "speech"; }));
}

class RealSuiteModelTest : public ::testing::TestWithParam<std::string> {};

INSTANTIATE_TEST_SUITE_P(Models, RealSuiteModelTest, ::testing::ValuesIn(suiteNames(false)));

// Every symbolic axis of the model is bound by its documented shapes: without them the import is an
// error naming the axis, with them it succeeds and records the free axes it bound.
TEST_P(RealSuiteModelTest, ImportsAtItsDocumentedShapesOnly) {
  const RealSuiteModel model = realSuiteModel(GetParam());
  const Graph graph = importRealSuiteModel(model);
  for (const auto& [input, shape] : model.inputShapes) {
    std::optional<NodeId> node = graph.findNode(input);
    ASSERT_TRUE(node) << input;
    EXPECT_EQ(graph.node(*node).outputTypes[0].shape, shape) << input;
  }
  if (model.inputShapes.empty()) return;
  EXPECT_FALSE(graph.info.freeAxes.empty()) << "the documented shapes bind no free axis";
  try {
    onnx_io::importOnnxFile(model.path);
    ADD_FAILURE() << model.name << " imported with its symbolic dimensions left open";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--input-shape"), std::string::npos) << e.what();
  }
}

// Greedy rewriting with the default pack, then the result verified, exported, read back and
// verified against the original again: the path optimize --out takes.
TEST_P(RealSuiteModelTest, OptimisesVerifiesAndExportsAVerifiedFile) {
  const RealSuiteModel model = realSuiteModel(GetParam());
  const Graph original = importRealSuiteModel(model);
  RuleSet rules = defaultRules();
  std::vector<const Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  std::unique_ptr<CostModel> cost = makeCostModel(kPredictionCostSpec);
  Control control;
  EventStream events;
  SearchOptions options;
  SearchResult result = makeStrategy("greedy")->run(SearchInput{original, list, *cost, control, events, options});
  verifySearchResult(original, result, /*trials=*/1, options.seed);
  EXPECT_TRUE(result.verified) << result.verifyProblem;
  EXPECT_LT(result.noiseToSignal, VerifyOptions{}.maxNoiseToSignal);

  const Graph exported = onnx_io::importOnnxBytes(onnx_io::exportOnnxBytes(result.best), model.name + " exported",
                                                  onnx_io::bindingsReproducing(original));
  VerifyOptions verify;
  verify.trials = 1;
  VerifyResult check = verifyEquivalent(original, exported, verify);
  EXPECT_TRUE(check.equivalent) << check.worst;
}

struct ScratchManifest {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("tessera-real-suite-" + std::to_string(::getpid()));
  ScratchManifest() { std::filesystem::create_directories(dir); }
  ~ScratchManifest() { std::filesystem::remove_all(dir); }
  std::string write(const std::string& text) const {
    const std::string path = (dir / "suite.json").string();
    std::ofstream(path) << text;
    return path;
  }
};

std::string errorOf(const std::string& manifest) {
  try {
    realSuiteModels(true, manifest);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(RealSuite, AMalformedManifestIsAnErrorNamingItAndTheEntry) {
  ScratchManifest scratch;
  std::ofstream((scratch.dir / "m.onnx").string()) << "x";
  const std::string notJson = scratch.write("{\"models\": [");
  EXPECT_NE(errorOf(notJson).find(notJson + ": is not valid JSON"), std::string::npos) << errorOf(notJson);
  const std::string noModels = scratch.write("{}");
  EXPECT_NE(errorOf(noModels).find("has no 'models' list"), std::string::npos) << errorOf(noModels);
  const std::string missingFile = scratch.write(
      R"({"models": [{"name": "a", "file": "absent.onnx", "kind": "ocr", "source": "s", "licence": "l"}]})");
  EXPECT_NE(errorOf(missingFile).find("models[0] ('a'): the model file"), std::string::npos) << errorOf(missingFile);
  const std::string badShape = scratch.write(
      R"({"models": [{"name": "a", "file": "m.onnx", "kind": "ocr", "source": "s", "licence": "l", "input_shapes": {"x": [1, 0]}}]})");
  EXPECT_NE(errorOf(badShape).find("input 'x' has a dimension that is not a positive integer"), std::string::npos)
      << errorOf(badShape);
  const std::string fine = scratch.write(R"({"models": [{"name": "a", "file": "m.onnx", "kind": "ocr", "source": "s", "licence": "l"}]})");
  EXPECT_EQ(errorOf(fine), "");
  try {
    realSuiteModel("b", fine);
    ADD_FAILURE() << "an unknown model was found";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("has no model 'b' (it has a)"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace tessera
