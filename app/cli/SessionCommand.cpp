// `tessera-cli session FILE [--run ID] [--json F] [--export-candidate ID --out FILE.onnx]`: what a
// session holds — its models, runs and candidates — and a way to take one candidate out as ONNX.
#include "CommandContext.h"
#include "Commands.h"

#include "ir/Graph.h"
#include "onnx/OnnxExport.h"
#include "session/Session.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <map>
#include <memory>

namespace tessera::cli {

namespace {

struct SessionOptions {
  std::string file;
  std::string json;
  int64_t run = 0; // 0: every run
  int64_t exportCandidate = 0;
  std::string out;
};

// The PACT'24 metric, against the original cost of the candidate's run.
double speedupPct(double originalMs, double costMs) { return originalMs > 0 ? (originalMs - costMs) / originalMs * 100 : 0; }

nlohmann::json runJson(const RunRecord& run) {
  nlohmann::json row = {{"id", run.id},
                        {"model", run.info.modelId},
                        {"strategy", run.info.strategy},
                        {"parameters", run.info.parameters},
                        {"seed", run.info.seed},
                        {"cost_spec", run.info.costSpec},
                        {"events", run.eventCount},
                        {"finished", run.summary.has_value()},
                        {"duration_seconds", run.durationSeconds()}};
  if (!run.summary) return row;
  const RunSummary& summary = *run.summary;
  row["stop_reason"] = summary.stopReason;
  row["original_cost_ms"] = summary.originalCostMs;
  row["optimized_cost_ms"] = summary.bestCostMs;
  row["speedup_pct"] = summary.speedupPct;
  row["steps"] = summary.steps;
  row["enodes"] = summary.enodes;
  row["eclasses"] = summary.eclasses;
  row["verified"] = summary.verified ? nlohmann::json(*summary.verified) : nlohmann::json();
  // null where no checkpoint was involved or the session predates the column
  row["in_sample"] = summary.inSample ? nlohmann::json(*summary.inSample) : nlohmann::json();
  return row;
}

void printRuns(const std::vector<RunRecord>& runs) {
  std::printf("runs       %zu\n", runs.size());
  if (runs.empty()) return;
  std::printf("  %4s %-8s %6s %-16s %-16s %12s %12s %9s   %6s %8s %8s %9s\n", "id", "strategy", "seed", "cost", "stop", "original_ms",
              "best_ms", "speedup%", "steps", "enodes", "events", "seconds");
  bool anyInSample = false;
  for (const RunRecord& run : runs) {
    if (!run.summary) {
      std::printf("  %4lld %-8s %6llu %-16s %-16s %12s %12s %9s   %6s %8s %8zu %9s\n", static_cast<long long>(run.id),
                  run.info.strategy.c_str(), static_cast<unsigned long long>(run.info.seed), run.info.costSpec.c_str(), "(unfinished)",
                  "-", "-", "-", "-", "-", run.eventCount, "-");
      continue;
    }
    const RunSummary& s = *run.summary;
    const bool inSample = s.inSample.value_or(false);
    anyInSample = anyInSample || inSample;
    std::printf("  %4lld %-8s %6llu %-16s %-16s %12.4f %12.4f %9.2f%s %6d %8zu %8zu %9.2f\n", static_cast<long long>(run.id),
                run.info.strategy.c_str(), static_cast<unsigned long long>(run.info.seed), run.info.costSpec.c_str(),
                s.stopReason.c_str(), s.originalCostMs, s.bestCostMs, s.speedupPct, inSample ? " i" : "  ", s.steps, s.enodes,
                run.eventCount, run.durationSeconds());
  }
  if (anyInSample) std::printf("  i: in-sample, the agent or guide trained on this model\n");
}

int exportCandidate(Session& session, const SessionOptions& options) {
  if (options.out.empty()) throw errorInFile(session.path(), "--export-candidate needs --out FILE.onnx");
  Graph graph = session.loadCandidate(options.exportCandidate);
  onnx_io::exportOnnxFile(graph, options.out);
  std::printf("wrote      %s (candidate %lld, %zu ops)\n", options.out.c_str(), static_cast<long long>(options.exportCandidate),
              graph.opCount());
  return 0;
}

int runSession(const SessionOptions& options) {
  Session session = Session::open(options.file);
  if (options.exportCandidate != 0) return exportCandidate(session, options);

  std::vector<RunRecord> runs;
  if (options.run != 0) {
    std::optional<RunRecord> run = session.run(options.run);
    if (!run) throw errorInFile(options.file, "has no run " + std::to_string(options.run));
    runs.push_back(*run);
  } else {
    runs = session.runs();
  }
  std::vector<ModelRecord> models = session.models();
  if (options.run != 0) std::erase_if(models, [&](const ModelRecord& m) { return m.id != runs[0].info.modelId; });
  std::vector<CandidateRecord> candidates =
      options.run != 0 ? session.candidates(options.run) : session.candidates();
  std::map<int64_t, double> originalMsByRun;
  for (const RunRecord& run : runs)
    if (run.summary) originalMsByRun[run.id] = run.summary->originalCostMs;

  nlohmann::json report = {{"session", options.file}, {"models", nlohmann::json::array()}, {"runs", nlohmann::json::array()},
                           {"candidates", nlohmann::json::array()}};
  std::printf("session    %s\n", options.file.c_str());
  std::printf("models     %zu\n", models.size());
  for (const ModelRecord& model : models) {
    std::printf("  %4lld %-20s %6zu ops  %s\n", static_cast<long long>(model.id), model.name.c_str(), model.opCount, model.sourcePath.c_str());
    report["models"].push_back({{"id", model.id}, {"name", model.name}, {"source_path", model.sourcePath}, {"ops", model.opCount}});
  }
  printRuns(runs);
  for (const RunRecord& run : runs) report["runs"].push_back(runJson(run));

  std::printf("candidates %zu\n", candidates.size());
  if (!candidates.empty())
    std::printf("  %4s %4s %6s %12s %9s %-8s %6s %6s\n", "id", "run", "index", "cost_ms", "speedup%", "method", "step", "ops");
  for (const CandidateRecord& candidate : candidates) {
    auto original = originalMsByRun.find(candidate.runId);
    nlohmann::json row = {{"id", candidate.id},         {"run", candidate.runId}, {"index", candidate.index},
                          {"cost_ms", candidate.costMs}, {"method", candidate.method}, {"step", candidate.step},
                          {"ops", candidate.opCount}};
    std::string speedup = "-";
    if (original != originalMsByRun.end()) {
      double pct = speedupPct(original->second, candidate.costMs);
      row["speedup_pct"] = pct;
      char text[32];
      std::snprintf(text, sizeof text, "%.2f", pct);
      speedup = text;
    }
    std::printf("  %4lld %4lld %6d %12.4f %9s %-8s %6d %6zu\n", static_cast<long long>(candidate.id), static_cast<long long>(candidate.runId),
                candidate.index, candidate.costMs, speedup.c_str(), candidate.method.c_str(), candidate.step, candidate.opCount);
    report["candidates"].push_back(std::move(row));
  }

  if (!options.json.empty()) writeJsonReport(report, options.json);
  return 0;
}

} // namespace

void addSessionCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<SessionOptions>();
  CLI::App* command = app.add_subcommand("session", "List a session's models, runs and candidates, or export a candidate as ONNX");
  command->add_option("file", options->file, "Session file (.tsession)")->required();
  command->add_option("--run", options->run, "Only this run and its candidates");
  command->add_option("--json", options->json, "Also write the listing as JSON (models, runs, candidates) to this file");
  CLI::Option* exportOption = command->add_option("--export-candidate", options->exportCandidate, "Write this candidate's graph as ONNX");
  command->add_option("--out", options->out, "Where --export-candidate writes the ONNX model")->needs(exportOption);
  command->callback([options, &context] { context.exitCode = runSession(*options); });
}

} // namespace tessera::cli
