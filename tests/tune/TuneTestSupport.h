// Shared by the tuner tests: a CPU tuning context that measures quickly (one short repeat) and
// waits for slow compiles, the CPU code generators of the build, a builder whose every other candidate fails to compile, and what a
// mutation changed in a trace.
#pragma once

#include "tune/CodegenLlvm.h"
#include "tune/CostModel.h"
#include "tune/Tuner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

// The learned cost model's tests need a build with XGBoost.
#define SKIP_WITHOUT_XGBOOST() \
  if (!::tessera::tune::xgboostAvailable()) GTEST_SKIP() << "this build has no XGBoost"

namespace tessera::tune::test {

inline CpuTuneSettings quickSettings() {
  CpuTuneSettings settings;
  settings.run.warmup = 0;
  settings.run.repeats = 1;
  settings.run.minRepeatMs = 0;
  // A compile that times out is a failed trial, which these tests would misread: on a loaded
  // machine a heavily unrolled candidate takes a minute.
  settings.build.timeoutSeconds = 600;
  return settings;
}

// The CPU code generators of this build: LLVM IR (when it has LLVM) and C.
inline std::vector<KernelLanguage> cpuLanguages() {
  if (llvmAvailable()) return {KernelLanguage::LlvmIr, KernelLanguage::C};
  return {KernelLanguage::C};
}

// Breaks the source of every other candidate before compiling it.
class BreakingBuilder final : public Builder {
public:
  explicit BreakingBuilder(std::unique_ptr<Builder> inner) : inner_(std::move(inner)) {}
  std::vector<BuildResult> build(const std::vector<BuildInput>& inputs) override {
    std::vector<BuildInput> broken = inputs;
    for (BuildInput& input : broken)
      if (count_++ % 2 == 0) input.source += "\n#error this candidate does not compile\n";
    return inner_->build(broken);
  }

private:
  std::unique_ptr<Builder> inner_;
  int count_ = 0;
};

// The decisions of the trace's sampling instructions, in order.
inline std::vector<std::vector<int64_t>> decisionsOf(const Trace& trace) {
  std::vector<std::vector<int64_t>> decisions;
  for (size_t i : trace.samplingInstructions()) decisions.push_back(trace.instructions[i].decision);
  return decisions;
}

// How many decisions `mutated` changed; anything else that differs fails the test.
inline int changedDecisions(const Trace& original, const Trace& mutated) {
  EXPECT_EQ(mutated.instructions.size(), original.instructions.size());
  int changed = 0;
  for (size_t i = 0; i < std::min(original.instructions.size(), mutated.instructions.size()); ++i) {
    Instruction x = original.instructions[i], y = mutated.instructions[i];
    if (x.decision != y.decision) {
      ++changed;
      EXPECT_TRUE(x.isSampling()) << "instruction " << i;
    }
    x.decision = y.decision = {};
    EXPECT_EQ(x, y) << "instruction " << i << " changed beyond its decision";
  }
  return changed;
}

} // namespace tessera::tune::test
