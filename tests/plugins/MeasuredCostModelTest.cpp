// MeasuredCostModel: each signature measured once per device, cached across runs, estimates for
// what the backend cannot time, a device that fails mid-run, and timings of a busy host kept out
// of the cache (with an injected load reading: the tests never depend on the real load); which
// callers a shared model holds back before they time an op.
#include "cost/AnalyticCostModel.h"
#include "cost/CostCache.h"
#include "cost/MeasuredCostModel.h"
#include "run/SharedCostModels.h"
#include "support/Error.h"
#include "support/HostLoad.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <unistd.h>

using namespace tessera;

namespace {

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

// Times nothing: reports 1 ms per element-kilo, refuses Gather, fails after `failAfter` calls.
class FakeProfiler final : public OpProfiler {
public:
  FakeProfiler(int* calls, int failAfter = 1000) : calls_(calls), failAfter_(failAfter) {}
  std::string device() const override { return "fake:device"; }
  bool canMeasure(const OpSignature& signature) override { return signature.kind != OpKind::Gather; }
  double measureMs(const OpSignature& signature) override {
    if (*calls_ >= failAfter_) throw Error("device lost");
    ++*calls_;
    return static_cast<double>(signature.outputs[0].numel()) / 1000.0;
  }

private:
  int* calls_;
  int failAfter_;
};

std::unique_ptr<MeasuredCostModel> makeModel(int* calls, std::shared_ptr<CostCache> cache, int failAfter = 1000,
                                             MeasuredCostModel::Warning warn = {}) {
  return std::make_unique<MeasuredCostModel>("measured:fake", std::make_unique<FakeProfiler>(calls, failAfter), std::move(cache),
                                             makeCostModel("analytic:h200"), std::move(warn));
}

std::string tempPath(const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / ("tessera-measured-" + std::to_string(getpid()) + "-" + name);
  std::filesystem::remove(path);
  return path.string();
}

const OpSignature kRelu{OpKind::Relu, {f32({1000})}, {f32({1000})}, {}};
const OpSignature kTanh{OpKind::Tanh, {f32({2000})}, {f32({2000})}, {}};
const OpSignature kGather{OpKind::Gather, {f32({10, 4}), {DType::Int64, {3}}}, {f32({3, 4})}, {}};
const OpSignature kReshape{OpKind::Reshape, {f32({10, 4})}, {f32({40})}, {{"shape", std::vector<int64_t>{40}}}};

} // namespace

TEST(MeasuredCostModel, MeasuresEachSignatureOnceAndNothingOnTheSecondRun) {
  const std::string path = tempPath("cache.sqlite");
  int calls = 0;
  {
    auto model = makeModel(&calls, std::make_shared<CostCache>(path));
    EXPECT_EQ(model->costMs(kRelu), 1.0);
    EXPECT_EQ(model->costMs(kRelu), 1.0);
    EXPECT_EQ(model->costMs(kTanh), 2.0);
    EXPECT_EQ(model->costMs(kReshape), 0.0); // a view: never timed
    EXPECT_EQ(calls, 2);
    EXPECT_EQ(model->stats().measured, 2u);
    EXPECT_EQ(model->stats().cacheHits, 0u);
  }
  auto second = makeModel(&calls, std::make_shared<CostCache>(path));
  EXPECT_EQ(second->costMs(kTanh), 2.0);
  EXPECT_EQ(second->costMs(kRelu), 1.0);
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(second->stats().measured, 0u);
  EXPECT_EQ(second->stats().cacheHits, 2u);
  EXPECT_NE(second->summary().find("0 signatures measured"), std::string::npos) << second->summary();
  EXPECT_NE(second->summary().find("2 cache hits"), std::string::npos) << second->summary();
}

TEST(MeasuredCostModel, EstimatesWhatTheBackendCannotTimeAndKeepsItOutOfTheCache) {
  const std::string path = tempPath("estimates.sqlite");
  int calls = 0;
  auto cache = std::make_shared<CostCache>(path);
  auto model = makeModel(&calls, cache);
  const double estimate = model->costMs(kGather);
  EXPECT_EQ(estimate, AnalyticCostModel(*findDeviceProfile("h200")).costMs(kGather));
  EXPECT_EQ(model->costMs(kGather), estimate);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(model->stats().estimated, 1u);
  EXPECT_EQ(model->stats().estimatedOps.at("Gather"), 1u);
  EXPECT_EQ(cache->size("fake:device"), 0u); // an estimate is not a measurement
  EXPECT_NE(model->summary().find("Gather 1"), std::string::npos) << model->summary();
}

TEST(MeasuredCostModel, ADeviceThatFailsIsReportedOnceAndEstimatedAfterwards) {
  int calls = 0;
  std::vector<std::string> warnings;
  auto model = makeModel(&calls, nullptr, 1, [&](const std::string& line) { warnings.push_back(line); });
  EXPECT_EQ(model->costMs(kRelu), 1.0);
  const double tanh = model->costMs(kTanh); // the device is gone now
  EXPECT_GT(tanh, 0.0);
  EXPECT_EQ(model->costMs(kTanh), tanh); // deterministic per signature
  model->costMs({OpKind::Sigmoid, {f32({7})}, {f32({7})}, {}});
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("device lost"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("analytic:h200"), std::string::npos) << warnings[0];
  EXPECT_EQ(model->stats().measured, 1u);
  EXPECT_EQ(model->stats().estimated, 2u);
  EXPECT_EQ(model->stats().deviceFailure, "device lost");
}

TEST(MeasuredCostModel, TimingsOfABusyHostPriceThisRunOnlyAndItSaysSoOnce) {
  const std::string path = tempPath("busy.sqlite");
  auto cache = std::make_shared<CostCache>(path);
  int calls = 0;
  std::vector<std::string> warnings;
  auto busy = makeModel(&calls, cache, 1000, [&](const std::string& line) { warnings.push_back(line); });
  busy->setHostLoadReading([] { return HostLoad{9.3, 2}; });
  ASSERT_EQ(warnings.size(), 1u) << "a run that starts on a busy host says so before it measures";
  EXPECT_NE(warnings[0].find("load 9.3 on 2 processors"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("not kept in the cost cache"), std::string::npos) << warnings[0];
  EXPECT_EQ(busy->costMs(kRelu), 1.0);
  EXPECT_EQ(busy->costMs(kTanh), 2.0);
  EXPECT_EQ(busy->costMs(kRelu), 1.0) << "this run keeps its answer";
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(cache->size("fake:device"), 0u) << "a busy host's timing is never cached";
  EXPECT_EQ(busy->stats().keptOutOfCache, 2u);
  EXPECT_EQ(warnings.size(), 1u) << "said once";
  EXPECT_NE(busy->summary().find("2 measured on a busy machine, kept out of the cost cache"), std::string::npos) << busy->summary();
  EXPECT_EQ(busy->deviceCosts().msBySignature.size(), 2u) << "the run's session still records what priced it";

  // A later, quiet run measures them again, and keeps them.
  auto quiet = makeModel(&calls, cache, 1000, [&](const std::string& line) { warnings.push_back(line); });
  quiet->setHostLoadReading([] { return HostLoad{0.5, 2}; });
  EXPECT_EQ(quiet->costMs(kRelu), 1.0);
  EXPECT_EQ(calls, 3);
  EXPECT_EQ(cache->size("fake:device"), 1u);
  EXPECT_EQ(quiet->stats().keptOutOfCache, 0u);
  EXPECT_EQ(warnings.size(), 1u) << "a quiet host says nothing";
}

TEST(MeasuredCostModel, AHostThatBecomesBusyMidRunStopsCachingFromThen) {
  const std::string path = tempPath("becomes-busy.sqlite");
  auto cache = std::make_shared<CostCache>(path);
  int calls = 0;
  std::vector<std::string> warnings;
  double load = 1.0;
  auto model = makeModel(&calls, cache, 1000, [&](const std::string& line) { warnings.push_back(line); });
  model->setHostLoadReading([&] { return HostLoad{load, 2}; });
  model->costMs(kRelu);
  EXPECT_EQ(cache->size("fake:device"), 1u);
  load = 4.0;
  model->costMs(kTanh);
  model->costMs({OpKind::Sigmoid, {f32({7})}, {f32({7})}, {}});
  EXPECT_EQ(cache->size("fake:device"), 1u) << "only the quiet timing is cached";
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("load 4.0 on 2 processors"), std::string::npos) << warnings[0];
  EXPECT_EQ(model->stats().keptOutOfCache, 2u);
}

TEST(MeasuredCostModel, WithoutALoadReadingEveryTimingIsCached) {
  const std::string path = tempPath("no-reading.sqlite");
  auto cache = std::make_shared<CostCache>(path);
  int calls = 0;
  auto model = makeModel(&calls, cache); // a GPU's backend: the host's load does not decide
  model->costMs(kRelu);
  EXPECT_EQ(cache->size("fake:device"), 1u);
}

TEST(MeasuredCostModel, WouldTimeOnlyWhatItHasNeitherAnsweredNorCachedAndCanMeasure) {
  const std::string path = tempPath("would-time.sqlite");
  int calls = 0;
  {
    auto model = makeModel(&calls, std::make_shared<CostCache>(path));
    EXPECT_TRUE(model->wouldTime(kRelu));
    EXPECT_EQ(calls, 0) << "asking times nothing";
    model->costMs(kRelu);
    EXPECT_FALSE(model->wouldTime(kRelu)) << "answered";
    EXPECT_FALSE(model->wouldTime(kReshape)) << "a view";
    EXPECT_FALSE(model->wouldTime(kGather)) << "estimated: the backend cannot time it";
  }
  auto next = makeModel(&calls, std::make_shared<CostCache>(path), 1);
  EXPECT_FALSE(next->wouldTime(kRelu)) << "in the cost cache";
  EXPECT_TRUE(next->wouldTime(kTanh));
  next->costMs(kTanh); // the device fails now: the fallback answers from here on
  EXPECT_FALSE(next->wouldTime({OpKind::Sigmoid, {f32({7})}, {f32({7})}, {}}));
}

// The explorer holds back pricing beside its own search, but only a caller that is about to time an
// op, and without holding the shared model meanwhile (the search prices with it too).
TEST(SharedCostModels, HoldBackOnlyACallerAboutToTimeAndNotWhileHoldingTheModel) {
  int calls = 0;
  std::vector<std::string> heldBack;
  std::shared_ptr<CostModel> shared;
  SharedCostModels models(
      [&](const std::string&) -> std::unique_ptr<CostModel> { return makeModel(&calls, nullptr); },
      [&](const std::string& spec) {
        heldBack.push_back(spec);
        // Another thread (a search) prices meanwhile: it must get its turn.
        auto other = std::async(std::launch::async, [&] { return shared->costMs(kReshape); });
        EXPECT_EQ(other.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "the waiting caller held the model";
      });
  shared = models.model("measured:fake");
  shared->costMs(kRelu);
  ASSERT_EQ(heldBack.size(), 1u);
  EXPECT_EQ(heldBack[0], "measured:fake");
  shared->costMs(kRelu);     // answered before
  shared->costMs(kReshape);  // a view
  shared->costMs(kGather);   // estimated
  EXPECT_EQ(heldBack.size(), 1u) << "nothing else was timed";
  models.model("analytic:h200")->costMs(kTanh);
  EXPECT_EQ(heldBack.size(), 1u) << "a computed model never times";
}
