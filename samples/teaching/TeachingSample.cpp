// Writes the teaching sample and shows the phase-ordering problem on it: phase_ordering.onnx, and
// phase_ordering.tsession with one recorded run each of greedy rewriting, equality saturation and
// MCTS (same rules, same cost model), to replay in the explorer. Prints what each run reached.
// Usage: tessera-teaching-sample OUT_DIR
#include "events/Control.h"
#include "generator/Teaching.h"
#include "onnx/OnnxExport.h"
#include "run/RunModel.h"
#include "support/Error.h"

#include <cstdio>
#include <exception>
#include <filesystem>

using namespace tessera;

int main(int argc, char** argv) {
  const std::filesystem::path dir = argc > 1 ? argv[1] : "samples/teaching";
  try {
    std::filesystem::create_directories(dir);
    const Graph model = samples::phaseOrderingModel();
    onnx_io::exportOnnxFile(model, (dir / "phase_ordering.onnx").string());
    const std::filesystem::path sessionPath = dir / "phase_ordering.tsession";
    std::filesystem::remove(sessionPath);
    // The bundled session names the model by its file beside it, so a copy opens anywhere.
    const RecordedModel recorded{0, "phase_ordering", "phase_ordering.onnx"};

    for (const char* strategy : {"greedy", "eqsat", "mcts"}) {
      // core's run (run/RunModel.h), as optimize runs it, with the built-in rules. Priced by the
      // analytic model, not the machine's own: the bundled lesson is the same wherever it is opened.
      RunPlan plan;
      plan.request.strategy = strategy;
      plan.request.costSpec = kPredictionCostSpec;
      plan.request.search.timeLimitSeconds = 20;
      plan.sessionPath = sessionPath.string();
      plan.recordedModel = recorded;
      Control control;
      const RunOutcome run = runModel(model, plan, RunBackends{}, control, nullptr);
      const SearchResult& result = run.result;
      std::printf("%-6s %.4f ms -> %.4f ms (%.1f %%), %d steps, %s, rules:", strategy, result.originalCostMs, result.bestCostMs,
                  result.speedupPct, result.steps, result.verified ? "verified" : "NOT VERIFIED");
      for (const auto& [rule, count] : result.rulesApplied) std::printf(" %s x%zu", rule.c_str(), count);
      std::printf("\n");
      if (!result.verified) throw Error(std::string(strategy) + "'s result does not match the model: " + result.verifyProblem);
    }
    std::printf("wrote %s and %s\n", (dir / "phase_ordering.onnx").c_str(), sessionPath.c_str());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "tessera-teaching-sample: %s\n", error.what());
    return 1;
  }
  return 0;
}
