// Cost specs resolve the same way for every program: core's models directly, measured ones through
// the program's plugins, one fallback with its reason when a measuring backend cannot be used.
#include "cost/AnalyticCostModel.h"
#include "run/CostResolution.h"
#include "support/Error.h"

#include <gtest/gtest.h>

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

TEST(CostResolution, AnUnusableBackendFallsBackToTheDefaultAndSaysWhy) {
  ResolvedCost resolved =
      resolveCostSpec("measured:cuda", [](const std::string&) -> std::unique_ptr<CostModel> { throw Error("no CUDA device"); });
  EXPECT_EQ(resolved.model->spec(), kDefaultCostSpec);
  EXPECT_EQ(resolved.fallbackNote, "measured:cuda is unavailable: no CUDA device; using analytic:h200 instead");
}

TEST(CostResolution, AProgramWithoutPluginsSaysSo) {
  ResolvedCost resolved = resolveCostSpec("measured:cpu", {});
  EXPECT_EQ(resolved.model->spec(), kDefaultCostSpec);
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
