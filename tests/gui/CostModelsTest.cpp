// The explorer's cost models: the run panel offers the measured backends that loaded, a measured
// model is one shared instance that answers with the device's figures, and a backend that cannot
// be used falls back to the analytic model and says why.
#include "CostModels.h"
#include "EndToEndTiming.h"
#include "RunPanel.h"

#include "cost/OpSignature.h"
#include "ir/Graph.h"
#include "support/Error.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardItemModel>

#include <gtest/gtest.h>

#include <algorithm>

// measured:cpu needs the CPU plugin (oneDNN found at configure time): without it these tests skip, saying why.
#define SKIP_WITHOUT_CPU_PLUGIN() \
  if (!TESSERA_HAVE_CPU_PLUGIN) GTEST_SKIP() << "this build has no CPU plugin (oneDNN was not found at configure time)"

using namespace tessera;
using namespace tessera::gui;

namespace {

const OpSignature kRelu{OpKind::Relu, {{DType::Float32, {64, 1024}}}, {{DType::Float32, {64, 1024}}}, {}};

bool offers(const std::vector<CostChoice>& choices, const std::string& spec) {
  return std::any_of(choices.begin(), choices.end(), [&](const CostChoice& c) { return c.spec == spec && c.unavailable.empty(); });
}

} // namespace

TEST(CostModels, AnalyticProfilesAreAlwaysOffered) {
  const std::vector<CostChoice> choices = analyticCostChoices();
  EXPECT_TRUE(offers(choices, "analytic:h200"));
  EXPECT_TRUE(offers(choices, "analytic:a100"));
}

TEST(CostModels, AnUnusableBackendFallsBackToTheAnalyticModelAndSaysWhy) {
  std::shared_ptr<CostModel> model = sharedCostModel("measured:no-such-backend");
  EXPECT_EQ(model->spec(), "analytic:h200");
  EXPECT_GT(model->costMs(kRelu), 0.0);
  const std::string note = fallbackNote("measured:no-such-backend");
  EXPECT_NE(note.find("measured:no-such-backend is unavailable"), std::string::npos) << note;
  EXPECT_TRUE(fallbackNote("analytic:h200").empty());
  EXPECT_THROW(sharedCostModel("analytic:no-such-device"), Error);
}

TEST(CostModels, MeasuredCpuIsOfferedSharedAndAnswersWithTheDevicesFigures) {
  SKIP_WITHOUT_CPU_PLUGIN();
  EXPECT_TRUE(offers(measuredCostChoices(), "measured:cpu"));
  std::shared_ptr<CostModel> model = sharedCostModel("measured:cpu");
  EXPECT_EQ(model->spec(), "measured:cpu");
  EXPECT_EQ(sharedCostModel("measured:cpu"), model) << "one model per spec, so each signature is measured once";
  EXPECT_TRUE(fallbackNote("measured:cpu").empty());
  const double ms = model->costMs(kRelu);
  EXPECT_GT(ms, 0.0);
  EXPECT_EQ(model->costMs(kRelu), ms);
  const DeviceCosts figures = model->deviceCosts();
  EXPECT_EQ(figures.device.rfind("cpu:", 0), 0u) << figures.device;
  ASSERT_EQ(figures.msBySignature.count(kRelu.key()), 1u);
  EXPECT_EQ(figures.msBySignature.at(kRelu.key()), ms);
}

TEST(CostModels, TheRunPanelListsTheMeasuredBackendOnceThePluginsHaveLoaded) {
  SKIP_WITHOUT_CPU_PLUGIN();
  RunPanel panel;
  RunSettings saved;
  saved.costSpec = "measured:cpu"; // restored before the plugins are known: selected when they are
  panel.setSettings(saved);
  QSignalSpy loaded(&panel, &RunPanel::costChoicesLoaded);
  panel.discoverMeasuredBackends(); // the window asks once its start-up threads are running
  ASSERT_TRUE(loaded.wait(30000));
  EXPECT_EQ(panel.costSpec(), "measured:cpu");
  bool listed = false;
  for (QComboBox* box : panel.findChildren<QComboBox*>()) {
    const int row = box->findData(QStringLiteral("measured:cpu"));
    if (row < 0) continue;
    listed = true;
    auto* items = qobject_cast<QStandardItemModel*>(box->model());
    ASSERT_NE(items, nullptr);
    EXPECT_TRUE(items->item(row)->isEnabled());
  }
  EXPECT_TRUE(listed);
}

// The panel starts from core's default, "auto": the first usable measured backend once the plugins
// are known, unless a listed spec was chosen meanwhile (the command line's --cost), which stays.
TEST(CostModels, TheRunPanelResolvesAutoUnlessAnotherSpecWasChosen) {
  SKIP_WITHOUT_CPU_PLUGIN();
  RunPanel automatic;
  automatic.setSettings(RunSettings{.costSpec = "auto"});
  QSignalSpy autoLoaded(&automatic, &RunPanel::costChoicesLoaded);
  automatic.discoverMeasuredBackends();
  ASSERT_TRUE(autoLoaded.wait(30000));
  EXPECT_TRUE(automatic.costSpec() == "measured:cpu" || automatic.costSpec() == "measured:cuda") << automatic.costSpec();

  RunPanel chosen;
  chosen.setSettings(RunSettings{.costSpec = "auto"});
  chosen.setSettings(RunSettings{.costSpec = "analytic:a100"});
  QSignalSpy chosenLoaded(&chosen, &RunPanel::costChoicesLoaded);
  chosen.discoverMeasuredBackends();
  ASSERT_TRUE(chosenLoaded.wait(30000));
  EXPECT_EQ(chosen.costSpec(), "analytic:a100");
  EXPECT_EQ(chosen.settings().costSpec, "analytic:a100");
}

namespace {

Graph reluChain(int relus) {
  Graph g;
  ValueRef value{g.addInput("x", TensorType{DType::Float32, {64, 256}})};
  for (int i = 0; i < relus; ++i) value = {g.addNode(OpKind::Relu, {value})};
  g.addOutput(value, "y");
  return g;
}

} // namespace

// "Time end to end" in the compare view: do no harm's checked comparison on the backend, its
// failures as errors that say why.
TEST(EndToEndTiming, TimesTwoGraphsOnTheBackendAndSaysWhyItCannot) {
  SKIP_WITHOUT_CPU_PLUGIN();
  const EndToEndComparison timed = timeEndToEnd("cpu", reluChain(3), reluChain(1));
  EXPECT_EQ(timed.device.rfind("cpu:", 0), 0u) << timed.device;
  EXPECT_GT(timed.originalMs, 0.0);
  EXPECT_GT(timed.candidateMs, 0.0);

  try {
    timeEndToEnd("cpu", reluChain(2), reluChain(2));
    ADD_FAILURE() << "the same graph twice has nothing to time";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nothing to time"), std::string::npos) << e.what();
  }
  try {
    timeEndToEnd("no-such-backend", reluChain(2), reluChain(1));
    ADD_FAILURE() << "an unknown backend is an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-backend"), std::string::npos) << e.what();
  }
}
