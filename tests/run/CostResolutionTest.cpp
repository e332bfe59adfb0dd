// Cost specs resolve the same way for every program: core's models directly, measured ones through
// the program's plugins, one fallback with its reason when a measuring backend cannot be used.
#include "cost/AnalyticCostModel.h"
#include "run/CostResolution.h"
#include "run/RunRequest.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>

using namespace tessera;

namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

} // namespace

TEST(CostResolution, CoreModelsResolveWithoutANote) {
  ResolvedCost resolved = resolveCostSpec("analytic:a100", {});
  EXPECT_EQ(resolved.model->spec(), "analytic:a100");
  EXPECT_TRUE(resolved.fallbackNote.empty());
}

TEST(CostResolution, AMeasuredSpecGoesToThePluginsFactory) {
  std::string asked;
  ResolvedCost resolved = resolveCostSpec("measured:cpu", [&](const std::string& backend) {
    asked = backend;
    return makeCostModel("analytic:v100"); // stands in for the plugin's measured model
  });
  EXPECT_EQ(asked, "cpu");
  EXPECT_EQ(resolved.model->spec(), "analytic:v100");
  EXPECT_TRUE(resolved.fallbackNote.empty());
}

TEST(CostResolution, AnUnusableBackendFallsBackToThePredictionAndSaysWhy) {
  ResolvedCost resolved =
      resolveCostSpec("measured:cuda", [](const std::string&) -> std::unique_ptr<CostModel> { throw Error("no CUDA device"); });
  EXPECT_EQ(resolved.model->spec(), kPredictionCostSpec);
  EXPECT_EQ(resolved.fallbackNote.rfind("measured:cuda is unavailable: no CUDA device; using analytic:h200, a prediction for NVIDIA H200", 0), 0u)
      << resolved.fallbackNote;
  EXPECT_TRUE(mentions(resolved.fallbackNote, "not a measurement on this machine")) << resolved.fallbackNote;
}

// "auto", the default: the GPU's measured backend where it loads, else the CPU's, else the
// analytic prediction with every backend's reason.
TEST(CostResolution, AutoTakesTheFirstMeasuredBackendThatLoads) {
  std::vector<std::string> asked;
  auto onlyCpu = [&](const std::string& backend) -> std::unique_ptr<CostModel> {
    asked.push_back(backend);
    if (backend != "cpu") throw Error("no usable NVIDIA driver");
    return makeCostModel("analytic:v100"); // stands in for measured:cpu
  };
  ResolvedCost resolved = resolveCostSpec(kAutoCostSpec, onlyCpu);
  EXPECT_EQ(asked, (std::vector<std::string>{"cuda", "cpu"}));
  EXPECT_EQ(resolved.model->spec(), "analytic:v100");
  EXPECT_TRUE(resolved.fallbackNote.empty()) << resolved.fallbackNote;

  asked.clear();
  ResolvedCost gpu = resolveCostSpec(kAutoCostSpec, [&](const std::string& backend) {
    asked.push_back(backend);
    return makeCostModel("analytic:a100");
  });
  EXPECT_EQ(asked, std::vector<std::string>{"cuda"}) << "a usable GPU is taken first";
  EXPECT_EQ(gpu.model->spec(), "analytic:a100");
}

TEST(CostResolution, AutoWithNoUsableBackendPredictsAndSaysWhyForEach) {
  ResolvedCost resolved = resolveCostSpec(kAutoCostSpec, [](const std::string& backend) -> std::unique_ptr<CostModel> {
    throw Error(backend + " plugin not found");
  });
  EXPECT_EQ(resolved.model->spec(), kPredictionCostSpec);
  EXPECT_TRUE(mentions(resolved.fallbackNote, "measured:cuda: cuda plugin not found")) << resolved.fallbackNote;
  EXPECT_TRUE(mentions(resolved.fallbackNote, "measured:cpu: cpu plugin not found")) << resolved.fallbackNote;
  EXPECT_TRUE(mentions(resolved.fallbackNote, "a prediction for NVIDIA H200")) << resolved.fallbackNote;

  ResolvedCost noPlugins = resolveCostSpec(kAutoCostSpec, {});
  EXPECT_EQ(noPlugins.model->spec(), kPredictionCostSpec);
  EXPECT_TRUE(mentions(noPlugins.fallbackNote, "without plugin support")) << noPlugins.fallbackNote;
}

TEST(CostResolution, TheDefaultIsAutoUnlessTheEnvironmentNamesOne) {
  const char* saved = std::getenv(kCostSpecVariable);
  const std::string kept = saved ? saved : "";
  unsetenv(kCostSpecVariable);
  EXPECT_EQ(defaultCostSpec(), kAutoCostSpec);
  EXPECT_EQ(RunRequest{}.costSpec, kAutoCostSpec) << "a run starts from the default";
  setenv(kCostSpecVariable, "analytic:a100", 1);
  EXPECT_EQ(defaultCostSpec(), "analytic:a100");
  if (saved) setenv(kCostSpecVariable, kept.c_str(), 1);
  else unsetenv(kCostSpecVariable);
}

TEST(CostResolution, AProgramWithoutPluginsSaysSo) {
  ResolvedCost resolved = resolveCostSpec("measured:cpu", {});
  EXPECT_EQ(resolved.model->spec(), kPredictionCostSpec);
  EXPECT_TRUE(mentions(resolved.fallbackNote, "measured:cpu is unavailable")) << resolved.fallbackNote;
  EXPECT_TRUE(mentions(resolved.fallbackNote, "without plugin support")) << resolved.fallbackNote;
}

TEST(CostResolution, ASpecThatNamesNoModelIsAnError) {
  EXPECT_THROW(resolveCostSpec("measured:", {}), Error);
  EXPECT_THROW(resolveCostSpec("analytic:no-such-device", {}), Error);
  EXPECT_THROW(resolveCostSpec("roofline", {}), Error);
  EXPECT_THROW(resolveCostSpec("table:/no/such/table.json", {}), Error);
}

TEST(CostResolution, MeasuredBackendNamesTheBackendOfAMeasuredSpecOnly) {
  EXPECT_EQ(measuredBackend("measured:ort"), "ort");
  EXPECT_EQ(measuredBackend("analytic:h200"), std::nullopt);
  EXPECT_EQ(measuredBackend("table:measured:cpu"), std::nullopt);
}
