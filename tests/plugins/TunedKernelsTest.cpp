// Tuned kernels in the CPU backend: an op with a tuned kernel costs the faster of the kernel and
// oneDNN (timers injected so the choice is known), the choice is recorded and the executor follows
// it with outputs that match the interpreter, the cost cache's device key changes with the set of
// kernels, and a record whose kernel cannot be built is skipped with a warning.
#include "CompiledGraph.h"
#include "CpuDevice.h"
#include "CpuProfiler.h"
#include "SampleExecution.h"
#include "TunedKernels.h"

#include "cost/GraphCost.h"
#include "interp/TestData.h"
#include "support/Error.h"
#include "tune/TunedKernel.h"
#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"

#include <gtest/gtest.h>

#include <filesystem>

#include <unistd.h>

using namespace tessera;
using Ints = std::vector<int64_t>;

namespace {

namespace fs = std::filesystem;

TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

constexpr const char* kGemmWorkload = "matmul:4x24x32,bias";
constexpr const char* kConvWorkload = "conv2d:1x6x4x4,8x6x3x3,s1,p1,bias,relu";

// Gemm (matmul + bias) -> Relu -> reshape -> Conv with bias and fused relu.
Graph smallGraph() {
  Graph g;
  const NodeId x = g.addInput("x", f32({4, 32}));
  const NodeId w1 = g.addWeight("w1", randomTensor(f32({32, 24}), 1, "w1"));
  const NodeId b1 = g.addWeight("b1", randomTensor(f32({24}), 2, "b1"));
  const NodeId gemm = g.addNode(OpKind::Gemm, {{x}, {w1}, {b1}}, {}, "gemm");
  const NodeId relu = g.addNode(OpKind::Relu, {{gemm}}, {}, "relu");
  const NodeId image = g.addNode(OpKind::Reshape, {{relu}}, {{"shape", Ints{1, 6, 4, 4}}}, "image");
  const NodeId w2 = g.addWeight("w2", randomTensor(f32({8, 6, 3, 3}), 3, "w2"));
  const NodeId b2 = g.addWeight("b2", randomTensor(f32({8}), 4, "b2"));
  const NodeId conv = g.addNode(OpKind::Conv, {{image}, {w2}, {b2}}, {{"pads", Ints{1, 1, 1, 1}}, {"activation", int64_t{2}}}, "conv");
  g.addOutput({conv}, "y");
  return g;
}

OpSignature signatureNamed(const Graph& graph, const std::string& name) {
  for (NodeId id = 0; id < graph.size(); ++id)
    if (graph.node(id).name == name) return signatureOf(graph, id);
  throw Error("no node " + name);
}

std::vector<Tensor> runCompiled(const Graph& graph, const TensorMap& inputs, std::shared_ptr<cpu::TunedKernels> tuned, size_t* tunedOps) {
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  cpu::useCpuThreads();
  cpu::CompiledGraph compiled(engine, graph, std::move(tuned));
  *tunedOps = compiled.tunedOps();
  compiled.feed(inputs);
  compiled.execute(stream);
  return compiled.outputs();
}

// A profiler whose oneDNN op always takes 2 ms and whose tuned kernels take what `tunedMs` says.
cpu::ProfilerTimers fakeTimers(double gemmTunedMs, double convTunedMs, int* tunedCalls) {
  return {[](cpu::DnnlOp&, const OpSignature&, dnnl::stream&) { return 2.0; },
          [=](const tune::TunedKernel& kernel, const OpSignature&) {
            ++*tunedCalls;
            return kernel.workload().kind == tune::WorkloadKind::Conv2d ? convTunedMs : gemmTunedMs;
          }};
}

// Both workloads tuned once for the suite (a few random trials on the executor's thread count);
// each test works on its own copy of the database.
class TunedKernelsTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    directory_ = fs::temp_directory_path() / ("tessera-tuned-kernels-" + std::to_string(::getpid()));
    fs::create_directories(directory_);
    tune::TuningDatabase database((directory_ / "tuned.sqlite").string());
    for (const char* workload : {kGemmWorkload, kConvWorkload}) {
      tune::CpuTuneSettings settings;
      settings.threads = cpu::cpuThreads();
      settings.run.warmup = 0;
      settings.run.repeats = 1;
      settings.run.minRepeatMs = 0;
      settings.build.timeoutSeconds = 600;
      auto context = tune::makeCpuTuneContext(tune::parseWorkload(workload), settings);
      context->database = &database;
      tune::TuneOptions options;
      options.trials = 4;
      options.batchSize = 4;
      tune::tune(*context, options);
    }
  }
  static void TearDownTestSuite() { fs::remove_all(directory_); }

  void SetUp() override {
    path_ = (directory_ / (std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + ".sqlite")).string();
    fs::copy_file(directory_ / "tuned.sqlite", path_, fs::copy_options::overwrite_existing);
    target_ = tune::cpuTarget(cpu::cpuThreads());
    tune::TuningDatabase database(path_);
    ASSERT_TRUE(database.best(kGemmWorkload, target_).has_value()) << "no verified kernel in 4 trials";
    ASSERT_TRUE(database.best(kConvWorkload, target_).has_value()) << "no verified kernel in 4 trials";
  }

  std::shared_ptr<cpu::TunedKernels> open(tune::BuildOptions build = {}) {
    return std::make_shared<cpu::TunedKernels>(path_, std::vector<std::string>{target_}, [this](const std::string& w) { warnings_.push_back(w); }, build);
  }

  static inline fs::path directory_;
  std::string path_;
  std::string target_;
  std::vector<std::string> warnings_;
};

TEST_F(TunedKernelsTest, CostIsTheFasterOfTunedKernelAndOneDnnAndTheExecutorFollows) {
  const Graph graph = smallGraph();
  const OpSignature gemm = signatureNamed(graph, "gemm"), conv = signatureNamed(graph, "conv"), relu = signatureNamed(graph, "relu");
  const TensorMap inputs = randomInputs(graph, 7);
  const std::vector<Tensor> reference = runGraph(graph, inputs);
  auto tuned = open();
  EXPECT_EQ(tuned->count(), 2u);

  // The Gemm's kernel beats oneDNN, the conv's does not.
  int tunedCalls = 0;
  {
    cpu::CpuProfiler profiler("cpu:test", tuned, fakeTimers(1.0, 3.0, &tunedCalls));
    for (const OpSignature* s : {&gemm, &conv, &relu}) ASSERT_TRUE(profiler.canMeasure(*s));
    EXPECT_DOUBLE_EQ(profiler.measureMs(gemm), 1.0);
    EXPECT_DOUBLE_EQ(profiler.measureMs(conv), 2.0);
    EXPECT_DOUBLE_EQ(profiler.measureMs(relu), 2.0);
    EXPECT_EQ(tunedCalls, 2); // the relu has no tuned kernel
  }
  EXPECT_NE(tuned->chosenKernel(gemm), nullptr);
  EXPECT_EQ(tuned->chosenKernel(conv), nullptr);
  size_t tunedOps = 0;
  test::expectMatchesInterpreter(runCompiled(graph, inputs, tuned, &tunedOps), reference, "tuned kernels");
  EXPECT_EQ(tunedOps, 1u);

  // Timed again the other way round: the recorded choice follows, and so does the executor.
  {
    cpu::CpuProfiler profiler("cpu:test", tuned, fakeTimers(3.0, 0.5, &tunedCalls));
    ASSERT_TRUE(profiler.canMeasure(gemm) && profiler.canMeasure(conv));
    EXPECT_DOUBLE_EQ(profiler.measureMs(gemm), 2.0);
    EXPECT_DOUBLE_EQ(profiler.measureMs(conv), 0.5);
  }
  EXPECT_EQ(tuned->chosenKernel(gemm), nullptr);
  EXPECT_NE(tuned->chosenKernel(conv), nullptr);
  test::expectMatchesInterpreter(runCompiled(graph, inputs, tuned, &tunedOps), reference, "tuned kernels");
  EXPECT_EQ(tunedOps, 1u);

  // Both tuned kernels chosen: the whole graph's heavy ops run tuned and still match.
  {
    cpu::CpuProfiler profiler("cpu:test", tuned, fakeTimers(0.5, 0.5, &tunedCalls));
    ASSERT_TRUE(profiler.canMeasure(gemm) && profiler.canMeasure(conv));
    profiler.measureMs(gemm);
    profiler.measureMs(conv);
  }
  test::expectMatchesInterpreter(runCompiled(graph, inputs, tuned, &tunedOps), reference, "tuned kernels");
  EXPECT_EQ(tunedOps, 2u);
  // Another process (a fresh TunedKernels on the same file) makes the same choice.
  test::expectMatchesInterpreter(runCompiled(graph, inputs, open(), &tunedOps), reference, "reopened tuned kernels");
  EXPECT_EQ(tunedOps, 2u);
  // Without tuned kernels nothing changes.
  test::expectMatchesInterpreter(runCompiled(graph, inputs, nullptr, &tunedOps), reference, "no tuned kernels");
  EXPECT_EQ(tunedOps, 0u);
  EXPECT_TRUE(warnings_.empty()) << warnings_.front();
}

TEST_F(TunedKernelsTest, RealTimersRecordBothTimesAndCostTheFaster) {
  const Graph graph = smallGraph();
  const OpSignature gemm = signatureNamed(graph, "gemm");
  auto tuned = open();
  cpu::CpuProfiler profiler("cpu:test", tuned);
  ASSERT_TRUE(profiler.canMeasure(gemm));
  const double ms = profiler.measureMs(gemm);
  tune::TuningDatabase database(path_);
  const std::optional<tune::TuningRecord> record = database.best(kGemmWorkload, target_);
  ASSERT_TRUE(record.has_value());
  const std::optional<tune::KernelChoice> choice = database.choice(target_, gemm.key(), record->hash);
  ASSERT_TRUE(choice.has_value());
  EXPECT_GT(choice->tunedMs, 0.0);
  EXPECT_GT(choice->libraryMs, 0.0);
  EXPECT_DOUBLE_EQ(ms, std::min(choice->tunedMs, choice->libraryMs));
  EXPECT_EQ(tuned->chosenKernel(gemm) != nullptr, choice->tunedFaster());
}

TEST_F(TunedKernelsTest, DeviceKeyNamesTheSetOfKernels) {
  const std::string base = "cpu:Test CPU (2 threads, executor timings, operands from memory)";
  auto tuned = open();
  ASSERT_EQ(tuned->fingerprint().size(), 8u);
  EXPECT_EQ(cpu::deviceKeyWithTunedKernels(base, tuned.get()),
            "cpu:Test CPU (2 threads, executor timings, operands from memory, 2 tuned kernels " + tuned->fingerprint() + ")");
  EXPECT_EQ(cpu::deviceKeyWithTunedKernels(base, nullptr), base);

  // No database file: no tuned kernels, the plain key, and no file made.
  const std::string missing = (directory_ / "missing.sqlite").string();
  cpu::TunedKernels none(missing, {target_});
  EXPECT_EQ(none.count(), 0u);
  EXPECT_EQ(cpu::deviceKeyWithTunedKernels(base, &none), base);
  EXPECT_FALSE(fs::exists(missing));
  // Kernels of another thread count are not this target's.
  EXPECT_EQ(cpu::TunedKernels(path_, {"cpu:Test CPU x64"}).count(), 0u);

  // A faster kernel found later is another set: costs timed against the old one are not reused.
  {
    tune::TuningDatabase database(path_);
    tune::TuningRecord better = *database.best(kGemmWorkload, target_);
    better.hash = "ffffffffffffffff";
    better.latencyMs /= 2;
    database.add(better);
  }
  EXPECT_NE(open()->fingerprint(), tuned->fingerprint());
}

TEST_F(TunedKernelsTest, RecordsTunedWithFlushedCachesComeFirstAndTheOthersFillIn) {
  // The profiler times ops with their operands flushed, so a kernel tuned that way is its first
  // pick for a workload; a workload tuned only with warm caches still gets its kernel.
  const std::string flushed = tune::cpuTarget(cpu::cpuThreads(), true);
  EXPECT_EQ(flushed, target_ + ", caches flushed");
  {
    tune::TuningDatabase database(path_);
    tune::TuningRecord cold = *database.best(kGemmWorkload, target_);
    cold.target = flushed;
    cold.hash = "eeeeeeeeeeeeeeee";
    cold.latencyMs *= 3; // slower than the warm record, as a flushed timing is: not compared with it
    database.add(cold);
  }
  const std::string warmOnly = cpu::TunedKernels(path_, {target_}).fingerprint();
  cpu::TunedKernels preferFlushed(path_, {flushed, target_});
  EXPECT_EQ(preferFlushed.count(), 2u); // the gemm from the flushed target, the conv from the other
  EXPECT_NE(preferFlushed.fingerprint(), warmOnly);
  EXPECT_EQ(cpu::TunedKernels(path_, {target_, flushed}).fingerprint(), warmOnly);
  EXPECT_EQ(cpu::TunedKernels(path_, {flushed}).count(), 1u);
}

TEST_F(TunedKernelsTest, RecordsWhoseKernelCannotBeBuiltAreSkippedWithAWarning) {
  const Graph graph = smallGraph();
  const OpSignature gemm = signatureNamed(graph, "gemm"), conv = signatureNamed(graph, "conv");
  const TensorMap inputs = randomInputs(graph, 5);
  const std::vector<Tensor> reference = runGraph(graph, inputs);
  std::string garbledHash;
  {
    // The Gemm's best record now has a trace that does not replay, and a choice that prefers it.
    tune::TuningDatabase database(path_);
    tune::TuningRecord garbled = *database.best(kGemmWorkload, target_);
    garbled.hash = garbledHash = "0000000000000bad";
    garbled.trace = "{\"version\": 1, \"instructions\": 7}";
    garbled.latencyMs = 1e-9;
    ASSERT_TRUE(database.add(garbled));
    database.storeChoice({target_, gemm.key(), garbledHash, 0.1, 1.0});
  }
  auto tuned = open();
  EXPECT_EQ(tuned->kernelFor(gemm), nullptr);
  EXPECT_EQ(tuned->chosenKernel(gemm), nullptr);
  ASSERT_EQ(warnings_.size(), 1u); // once, however often it is asked
  EXPECT_NE(warnings_[0].find("skipped a tuned kernel"), std::string::npos) << warnings_[0];
  EXPECT_NE(warnings_[0].find(kGemmWorkload), std::string::npos) << warnings_[0];
  EXPECT_NE(tuned->kernelFor(conv), nullptr); // the other record is unaffected

  // The profiler then times oneDNN alone, and the executor runs oneDNN.
  int tunedCalls = 0;
  cpu::CpuProfiler profiler("cpu:test", tuned, fakeTimers(0.1, 0.1, &tunedCalls));
  ASSERT_TRUE(profiler.canMeasure(gemm));
  EXPECT_DOUBLE_EQ(profiler.measureMs(gemm), 2.0);
  EXPECT_EQ(tunedCalls, 0);
  size_t tunedOps = 0;
  test::expectMatchesInterpreter(runCompiled(graph, inputs, tuned, &tunedOps), reference, "tuned kernels");
  EXPECT_EQ(tunedOps, 0u);

  // A compiler (for LLVM kernels, the linking driver) that fails: every kernel is skipped, each
  // with the compiler's complaint.
  warnings_.clear();
  tune::BuildOptions failing;
  failing.compiler = "false";
  auto unbuildable = open(failing);
  EXPECT_EQ(unbuildable->kernelFor(conv), nullptr);
  ASSERT_EQ(warnings_.size(), 1u);
  const bool failedToBuild = warnings_[0].find("compile failed") != std::string::npos || warnings_[0].find("link failed") != std::string::npos;
  EXPECT_TRUE(failedToBuild) << warnings_[0];
}

} // namespace
