// `tessera-cli sip WORKLOAD|MODEL.onnx [--steps N] [--legality none|deps] [--seed S] [--test-samples N] [--db F] [--json F]`:
// SIP on the CPU (core/sip, issue #34) on the best verified tuned kernel of a workload (of a
// model: its most expensive signature): its memory instructions reordered by simulated annealing,
// every candidate tested, the best tested on many samples and timed against the tuned kernel
// interleaved. A kernel faster with 95 % confidence is stored as a refinement of its record.
#include "CommandContext.h"
#include "Commands.h"
#include "ModelShapeOptions.h"

#include "sip/Moves.h"
#include "sip/Refinement.h"
#include "sip/Sip.h"
#include "support/Error.h"
#include "tune/ModelWorkloads.h"
#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"

#include "ExecutorThreads.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>

namespace tessera::cli {

namespace {

struct SipCommandOptions {
  std::string workload;
  int steps = 1000;
  std::string legality = "deps";
  uint64_t seed = 1;
  int64_t testSamples = 100000;
  int timingRounds = 20;
  int threads = 0; // 0: the CPU executor's, as tune
  std::string db;
  std::string json;
  ModelShapeOptions shapes;
};

nlohmann::json movesJson(const sip::Listing& listing, const sip::Schedule& best) {
  nlohmann::json moves = nlohmann::json::array();
  for (const sip::Displacement& d : sip::displacements(listing, best))
    moves.push_back({{"instruction", d.text}, {"block", d.block}, {"from_slot", d.fromSlot}, {"to_slot", d.toSlot},
                     {"from_line", d.fromLine + 1}, {"to_line", d.toLine + 1}});
  return moves;
}

// The best kernel's assembly, line by line, each moved instruction with the line it came from
// (1-based): what the explorer's SIP page lists.
nlohmann::json listingJson(const sip::Listing& listing, const sip::Schedule& best) {
  std::map<size_t, size_t> movedFrom; // line now -> line before
  for (const sip::Displacement& d : sip::displacements(listing, best)) movedFrom[d.toLine] = d.fromLine;
  const std::vector<std::string> lines = listing.renderLines(best.order);
  nlohmann::json rows = nlohmann::json::array();
  for (size_t i = 0; i < lines.size(); ++i) {
    nlohmann::json row{{"text", lines[i]}};
    if (auto it = movedFrom.find(i); it != movedFrom.end()) row["from_line"] = it->second + 1;
    rows.push_back(std::move(row));
  }
  return rows;
}

int runSipCommand(SipCommandOptions options) {
  if (options.steps < 1) throw Error("--steps must be at least 1");
  if (options.testSamples < 1) throw Error("--test-samples must be at least 1");
  if (options.timingRounds < 2) throw Error("--timing-rounds must be at least 2 (an interval needs two)");
  if (options.threads < 0) throw Error("--threads must be at least 1");
  const sip::Legality legality = sip::parseLegality(options.legality);
  tune::Workload workload;
  if (options.workload.size() > 5 && options.workload.ends_with(".onnx")) {
    tune::ModelWorkloads model = tune::modelWorkloads(options.shapes.import(options.workload));
    if (model.workloads.empty()) throw errorInFile(options.workload, "no matmul or conv2d the tuner can express");
    workload = model.workloads.front().workload; // the most expensive signature
    reportProgress("sip: " + options.workload + ": its heaviest signature is " + workload.key());
  } else {
    if (!options.shapes.inputShapes.empty() || !options.shapes.dims.empty())
      throw Error("sip: --input-shape and --dim size a MODEL.onnx's inputs; a workload gives its own shapes");
    workload = tune::parseWorkload(options.workload);
  }
  if (options.threads == 0) options.threads = tuning::executorThreads();
  const std::string target = tune::cpuTarget(options.threads);
  const std::string databasePath = options.db.empty() ? tune::defaultTuningDatabasePath() : options.db;
  tune::TuningDatabase database(databasePath);
  std::optional<tune::TuningRecord> record = sip::baseRecord(database, workload.key(), target);
  if (!record)
    throw errorInFile(databasePath, "no verified tuned kernel of " + workload.key() + " on " + target +
                                        ": tune it first (tessera-cli tune " + workload.key() + " --db " + databasePath + ")");

  sip::SipOptions sipOptions;
  sipOptions.annealing.steps = options.steps;
  sipOptions.annealing.seed = options.seed;
  sipOptions.annealing.legality = legality;
  sipOptions.testSamples = options.testSamples;
  sipOptions.timingRounds = options.timingRounds;
  sipOptions.run.threads = options.threads;
  // Shorter than the tuner's five repeats of 20 ms: a thousand candidates in minutes. The final
  // comparison is the interleaved timing, not these.
  sipOptions.run.repeats = 3;
  sipOptions.run.minRepeatMs = 10;
  reportProgress("sip: " + workload.key() + " on " + target + ", tuned kernel " + record->hash + " (" +
                 std::to_string(record->gflops) + " GFLOP/s when tuned), " + std::to_string(options.steps) + " steps, legality " +
                 options.legality + ", seed " + std::to_string(options.seed));
  const auto start = std::chrono::steady_clock::now();
  std::vector<double> gflopsByStep, bestByStep;
  const sip::SipRun run = sip::runSip(*record, sipOptions, [&](const sip::SipProgress& p) {
    char line[256];
    if (p.step) {
      gflopsByStep.push_back(p.step->evaluation.gflops);
      bestByStep.push_back(p.step->bestGflops);
      std::snprintf(line, sizeof line, "[%d/%d] T %.3f %s %.2f GFLOP/s%s (best %.2f)", p.step->step, options.steps, p.step->temperature,
                    sip::outcomeName(p.step->evaluation.outcome), p.step->evaluation.gflops, p.step->accepted ? " accepted" : "",
                    p.step->bestGflops);
    } else if (p.samplesTested >= 0) {
      std::snprintf(line, sizeof line, "final test: %lld of %lld samples pass", static_cast<long long>(p.samplesTested),
                    static_cast<long long>(options.testSamples));
    } else {
      std::snprintf(line, sizeof line, "interleaved timing: round %d of %d", p.timingRound, options.timingRounds);
    }
    reportProgress(line);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  bool stored = false;
  if (run.wins()) stored = database.add(sip::refinementRecord(*record, run, options.seed, legality));

  const sip::AnnealingResult& search = run.search;
  const sip::Improvement& improvement = run.improvement;
  const double baselineGflops = improvement.rounds ? workload.gflopsAt(improvement.baselineMedianMs) : search.baselineGflops;
  const double bestGflops = improvement.rounds ? workload.gflopsAt(improvement.candidateMedianMs) : search.bestGflops;
  nlohmann::json report;
  report["workload"] = workload.key();
  report["target"] = target;
  report["record_hash"] = record->hash;
  report["legality"] = options.legality;
  report["seed"] = options.seed;
  report["baseline_gflops"] = baselineGflops;
  report["best_gflops"] = bestGflops;
  report["search_baseline_gflops"] = search.baselineGflops;
  report["search_best_gflops"] = search.bestGflops;
  report["improvement_pct"] = improvement.meanPct;
  report["improvement_ci_pct"] = {improvement.lowPct, improvement.highPct};
  report["timing_rounds"] = improvement.rounds;
  report["timing_rounds_ms"] = {{"baseline", improvement.baselineMs}, {"best", improvement.candidateMs}};
  report["steps"] = search.steps;
  report["accepted"] = search.accepted;
  report["failed_assemble"] = search.failedAssemble;
  report["failed_run"] = search.failedRun;
  report["failed_test"] = search.failedTest;
  report["failed_final_test"] = run.bestDiffers && !run.finalTestPassed ? 1 : 0;
  report["final_test_passed"] = run.finalTestPassed;
  report["final_test_error"] = run.finalTestError;
  report["samples_tested"] = run.samplesTested;
  report["moves"] = movesJson(run.listing, search.best);
  report["best_listing"] = listingJson(run.listing, search.best);
  report["stop_reason"] = search.stopReason;
  report["instructions"] = run.listing.instructions.size();
  report["movable_instructions"] = run.listing.movableCount();
  report["blocks"] = run.listing.blocks.size();
  report["gflops_by_step"] = gflopsByStep;
  report["best_gflops_by_step"] = bestByStep;
  report["stored"] = stored;
  report["database"] = databasePath;
  report["sip_seconds"] = seconds;

  std::printf("workload      %s (tuned kernel %s)\n", workload.key().c_str(), record->hash.c_str());
  std::printf("listing       %zu instructions in %zu blocks, %zu movable\n", run.listing.instructions.size(), run.listing.blocks.size(),
              run.listing.movableCount());
  std::printf("search        %d steps (%s), %d accepted; failed: %d assemble, %d run, %d test\n", search.steps, search.stopReason.c_str(),
              search.accepted, search.failedAssemble, search.failedRun, search.failedTest);
  std::printf("search GFLOP/s %.2f -> %.2f\n", search.baselineGflops, search.bestGflops);
  if (!run.bestDiffers) std::printf("best          the tuned kernel itself (no reordering was faster)\n");
  else if (!run.finalTestPassed) std::printf("final test    FAILED after %lld samples: %s\n", static_cast<long long>(run.samplesTested), run.finalTestError.c_str());
  else
    std::printf("final test    %lld samples passed\nimprovement   %.2f %% [%.2f, %.2f] over %d interleaved rounds (%.2f -> %.2f GFLOP/s), %zu moved\n",
                static_cast<long long>(run.samplesTested), improvement.meanPct, improvement.lowPct, improvement.highPct, improvement.rounds,
                baselineGflops, bestGflops, report["moves"].size());
  std::printf("stored        %s\n", stored ? ("a refinement of " + record->hash + " in " + databasePath).c_str() : "no");
  std::printf("time          %.1f s\n", seconds);
  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

} // namespace

void addSipCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<SipCommandOptions>();
  CLI::App* command = app.add_subcommand("sip", kSipCommandDescription);
  command
      ->add_option("workload", options->workload,
                   "A tuned workload (matmul:MxNxK, conv2d:..., as tune takes them) or MODEL.onnx (its most expensive signature)")
      ->required();
  command->add_option("--steps", options->steps, "Annealing steps at most (it also stops when T <= 0.05, after 998)")->capture_default_str();
  command->add_option("--legality", options->legality,
                      "deps: no move past a label or barrier, no register or flag clash, no store past an access that may alias; "
                      "none: SIP's, the tests catch wrong moves")
      ->check(CLI::IsMember({"none", "deps"}))
      ->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of the moves and of the random inputs")->capture_default_str();
  command->add_option("--test-samples", options->testSamples, "Random inputs the best kernel must pass against the tuned one")
      ->capture_default_str();
  command->add_option("--timing-rounds", options->timingRounds, "Interleaved rounds timing the best against the tuned kernel")
      ->capture_default_str();
  command->add_option("--threads", options->threads, "The kernels' threads (default: the CPU executor's, as tune)");
  command->add_option("--db", options->db,
                      "Tuning database with the workload's records (default: $TESSERA_TUNING_DB, else tuning.sqlite beside the cost "
                      "cache); a winning kernel is added to it as a refinement");
  command->add_option("--json", options->json, "Also write the report as JSON to this file");
  addModelShapeOptions(command, options->shapes);
  command->callback([options, &context] { context.exitCode = runSipCommand(*options); });
}

} // namespace tessera::cli
