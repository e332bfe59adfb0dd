// Tuned kernels in the process: where the tuning database lives by default and how it is moved,
// a tuned record rebuilt, loaded and run in-process against the reference interpreter, and the
// records it must refuse with a message (a trace that does not replay, a kernel the code generator
// no longer produces, a build that fails).
#include "TuneTestSupport.h"

#include "tune/Reference.h"
#include "tune/TunedKernel.h"
#include "tune/TuningDatabase.h"

#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

namespace tessera::tune {
namespace {

// Sets (or unsets, with nullopt) an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) ::setenv(name, value->c_str(), 1);
    else ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(TunedKernel, DefaultDatabaseSitsBesideTheCostCacheUnlessMoved) {
  {
    ScopedEnv db("TESSERA_TUNING_DB", std::nullopt);
    ScopedEnv cache("TESSERA_COST_CACHE", std::nullopt);
    ScopedEnv xdg("XDG_CACHE_HOME", "/xdg/cache");
    EXPECT_EQ(defaultTuningDatabasePath(), "/xdg/cache/tessera/tuning.sqlite");
  }
  {
    ScopedEnv db("TESSERA_TUNING_DB", std::nullopt);
    ScopedEnv cache("TESSERA_COST_CACHE", "/project/costs/mine.sqlite");
    EXPECT_EQ(defaultTuningDatabasePath(), "/project/costs/tuning.sqlite");
  }
  {
    ScopedEnv db("TESSERA_TUNING_DB", "/elsewhere/kernels.db");
    ScopedEnv cache("TESSERA_COST_CACHE", "/project/costs/mine.sqlite");
    EXPECT_EQ(defaultTuningDatabasePath(), "/elsewhere/kernels.db");
  }
  {
    ScopedEnv db("TESSERA_TUNING_DB", ""); // empty: not set
    ScopedEnv cache("TESSERA_COST_CACHE", "/project/costs/mine.sqlite");
    EXPECT_EQ(defaultTuningDatabasePath(), "/project/costs/tuning.sqlite");
  }
}

// The best record of a few random trials of `workload`, measured as `tessera-cli tune` does.
TuningRecord tunedRecord(const std::string& workload, TuningDatabase& database, KernelLanguage language = defaultCpuLanguage()) {
  CpuTuneSettings settings = test::quickSettings();
  settings.language = language;
  auto context = makeCpuTuneContext(parseWorkload(workload), settings);
  context->database = &database;
  TuneOptions options;
  options.trials = 3;
  options.batchSize = 3;
  tune(*context, options);
  std::optional<TuningRecord> best = database.best(workload, context->target);
  if (!best) throw Error("no verified candidate of " + workload + " in 3 trials");
  return *best;
}

// Kernels tuned in either language load through the CPU builder, which builds both.
class TunedKernelIn : public testing::TestWithParam<KernelLanguage> {};

TEST_P(TunedKernelIn, LoadedInProcessComputesTheReferenceResult) {
  TuningDatabase database(":memory:");
  std::unique_ptr<Builder> cpuBuilder = makeCpuBuilder();
  Builder& builder = *cpuBuilder;
  for (const char* workload : {"matmul:24x20x16,bias,relu", "conv2d:1x4x9x9,6x4x3x3,s1,p1,bias,relu", "bmm:2x8x12x16"}) {
    SCOPED_TRACE(workload);
    const TuningRecord record = tunedRecord(workload, database, GetParam());
    std::unique_ptr<TunedKernel> kernel = TunedKernel::load(record, builder);
    EXPECT_EQ(kernel->hash(), record.hash);
    EXPECT_EQ(kernel->workload().key(), workload);

    const Problem problem = makeProblem(parseWorkload(workload), 11); // not the tuner's verification inputs
    std::vector<const float*> inputs;
    for (const auto& input : problem.inputs) inputs.push_back(input.data());
    std::vector<float> out(problem.expected.size(), std::numeric_limits<float>::quiet_NaN());
    kernel->run(inputs, out.data());
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_NEAR(out[i], problem.expected[i], problem.atol + problem.rtol * std::fabs(problem.expected[i])) << "element " << i;

    inputs.pop_back();
    EXPECT_THROW(kernel->run(inputs, out.data()), Error); // one input short
  }
}

void expectRefused(const TuningRecord& record, Builder& builder, const std::string& why) {
  try {
    TunedKernel::load(record, builder);
    ADD_FAILURE() << "loaded a record that should be refused (" << why << ")";
  } catch (const Error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(why), std::string::npos) << message;
    EXPECT_NE(message.find(record.workload), std::string::npos) << message;
  }
}

TEST_P(TunedKernelIn, RefusesRecordsItCannotRebuildSayingWhy) {
  TuningDatabase database(":memory:");
  const TuningRecord good = tunedRecord("matmul:8x8x8,relu", database, GetParam());
  std::unique_ptr<Builder> cpuBuilder = makeCpuBuilder();
  Builder& builder = *cpuBuilder;

  TuningRecord garbled = good;
  garbled.trace = "{ not a trace";
  expectRefused(garbled, builder, "does not replay");

  TuningRecord otherWorkload = good;
  otherWorkload.workload = "matmul:16x16x16";
  expectRefused(otherWorkload, builder, "does not replay");

  TuningRecord changed = good;
  changed.hash = "0123456789abcdef";
  expectRefused(changed, builder, "code generator changed");

  BuildOptions failing;
  failing.compiler = "false"; // runs, prints nothing, fails: a compiler (or, for LLVM, a linker) that cannot build it
  failing.cacheDir = testing::TempDir() + "/tessera-tune-failing"; // nothing built before
  std::unique_ptr<Builder> broken = makeCpuBuilder(failing);
  expectRefused(good, *broken, GetParam() == KernelLanguage::C ? "compile failed" : "link failed");

  EXPECT_NO_THROW(TunedKernel::load(good, builder));
}

INSTANTIATE_TEST_SUITE_P(Tune, TunedKernelIn, testing::ValuesIn(test::cpuLanguages()),
                         [](const testing::TestParamInfo<KernelLanguage>& info) { return std::string(languageName(info.param)); });

TEST(TunedKernel, TheSystemCompilerRefusesLlvmIrSayingSo) {
  CompilerBuilder builder;
  const BuildResult result = builder.build({{"; ModuleID = 'x'", false, KernelLanguage::LlvmIr}}).at(0);
  EXPECT_FALSE(result.ok());
  EXPECT_NE(result.error.find("builds C, not llvm"), std::string::npos) << result.error;
}

} // namespace
} // namespace tessera::tune
