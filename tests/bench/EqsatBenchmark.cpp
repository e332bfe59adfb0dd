// Equality saturation with TENSAT's settings (node limit 50,000, 15 iterations, k_multi 1) plus
// DAG-greedy extraction on each bundled sample: time per model and e-nodes per second.
// Run: build/tests/bench/tessera_eqsat_benchmark --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include "cost/CostModel.h"
#include "onnx/OnnxImport.h"
#include "rewrite/DefaultRules.h"
#include "search/Strategy.h"

#include <benchmark/benchmark.h>

namespace {

void BM_EqsatDag(benchmark::State& state, const std::string& model) {
  tessera::Graph graph = tessera::onnx_io::importOnnxFile(std::string(TESSERA_SOURCE_DIR) + "/samples/" + model + ".onnx");
  tessera::RuleSet rules = tessera::defaultRules();
  std::vector<const tessera::Rule*> list;
  for (const auto& rule : rules.rules()) list.push_back(rule.get());
  auto cost = tessera::makeCostModel("analytic:h200");
  tessera::SearchOptions options;
  options.nodeLimit = 50000;
  options.iterationLimit = 15;
  options.multiIterations = 1;
  options.timeLimitSeconds = 300;
  double enodes = 0, saturation = 0, speedup = 0;
  for (auto _ : state) {
    tessera::Control control;
    tessera::EventStream events;
    tessera::SearchResult result = tessera::makeStrategy("eqsat")->run({graph, list, *cost, control, events, options});
    enodes = static_cast<double>(result.enodes);
    saturation = result.searchSeconds;
    speedup = result.speedupPct;
  }
  state.counters["enodes"] = enodes;
  state.counters["enodes_per_s"] = saturation > 0 ? enodes / saturation : 0;
  state.counters["speedup_pct"] = speedup;
}

} // namespace

BENCHMARK_CAPTURE(BM_EqsatDag, bert, std::string("bert"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, resnext50, std::string("resnext50"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, resnet50, std::string("resnet50"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, nasnet_a, std::string("nasnet_a"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, nasrnn, std::string("nasrnn"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, inception_v3, std::string("inception_v3"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, squeezenet, std::string("squeezenet"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, vgg19, std::string("vgg19"))->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_EqsatDag, mobilenet_v2, std::string("mobilenet_v2"))->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
