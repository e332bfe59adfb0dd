// `tessera-cli rules synthesize (--ops LIST | --from-model MODEL...) [--max-ops N] [--json F] --out PACK.rules`:
// TASO's generator (core/synth). Only verified rules are written; a budget that stops the
// enumeration, a bad vocabulary or a model that does not load is one clear error, and nothing is
// written (unless --allow-partial keeps what a stopped run verified).
#include "CommandContext.h"
#include "Commands.h"

#include "onnx/OnnxImport.h"
#include "onnx/ShapeBindings.h"
#include "rewrite/RuleSet.h"
#include "support/Error.h"
#include "synth/RuleSynthesizer.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <memory>

namespace tessera::cli {

namespace {

struct SynthesizeOptions {
  std::string ops;
  std::vector<std::string> models;
  std::vector<std::string> inputShapes; // NAME=AxBxC, for models with open input sizes
  std::vector<std::string> dims;        // NAME=VALUE
  int maxOps = 3;
  int rhsMaxOps = 0; // --from-model: ops of the enumerated right-hand sides (0: max-ops - 1)
  bool noMine = false;
  std::string namePrefix = "synth";
  int variablesPerShape = 3;
  double timeLimit = 900;
  uint64_t maxGraphs = 20'000'000;
  uint64_t maxMemoryMb = 1024;
  uint64_t seed = 1;
  bool allowPartial = false;
  bool keepAll = false;
  std::string json;
  std::string out;
};

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> items;
  std::string current;
  for (char c : text + ",") {
    if (c != ',') {
      if (c != ' ') current += c;
      continue;
    }
    if (!current.empty()) items.push_back(current);
    current.clear();
  }
  return items;
}

nlohmann::json reportJson(const synth::SynthesisReport& report, const synth::SynthVocabulary& vocabulary, const SynthesizeOptions& options,
                          bool written) {
  nlohmann::json ops = nlohmann::json::array();
  for (const synth::SynthOp& op : vocabulary.ops) ops.push_back(op.label);
  nlohmann::json variables = nlohmann::json::array();
  for (const synth::SynthVariable& v : vocabulary.variables) variables.push_back(v.prefix + ":" + shapeToString(v.type.shape));
  nlohmann::json rules = nlohmann::json::array();
  for (const synth::SynthesizedRule& rule : report.rules)
    rules.push_back({{"name", rule.name},
                     {"labels", rule.labels},
                     {"rule", rule.body},
                     {"origin", rule.origin},
                     {"multi", rule.multi},
                     {"lhs_ops", rule.lhsOps},
                     {"rhs_ops", rule.rhsOps},
                     {"lhs_cost_ms", rule.lhsCostMs},
                     {"rhs_cost_ms", rule.rhsCostMs}});
  nlohmann::json refused = nlohmann::json::array();
  for (const synth::RefusedCandidate& r : report.refusedExamples) refused.push_back({{"rule", r.body}, {"problem", r.problem}});
  return {{"max_ops", options.maxOps},
          {"ops", ops},
          {"variables", variables},
          {"notes", vocabulary.notes},
          {"enumerated_graphs", report.enumeratedGraphs},
          {"fingerprinted_graphs", report.fingerprintedGraphs},
          {"fingerprint_groups", report.fingerprintGroups},
          {"candidate_pairs", report.candidatePairs},
          {"mined_trees", vocabulary.mining.trees},
          {"mined_unmapped", vocabulary.mining.unmapped},
          {"mined_weights_only", vocabulary.mining.weightsOnly},
          {"mined_patterns", report.minedPatterns},
          {"mined_patterns_per_model", vocabulary.mining.perModel},
          {"mined_unevaluable", report.minedUnevaluable},
          {"mined_paired", report.minedPaired},
          {"mined_pairs", report.minedPairs},
          {"mining_stop_reason", vocabulary.mining.stopReason.empty() ? "completed" : vocabulary.mining.stopReason},
          {"rhs_max_ops", options.models.empty() || options.noMine ? options.maxOps : (options.rhsMaxOps > 0 ? options.rhsMaxOps : std::max(1, options.maxOps - 1))},
          {"pruned_renaming", report.prunedRenaming},
          {"pruned_unwritable", report.prunedUnwritable},
          {"pruned_decomposable", report.prunedDecomposable},
          {"pruned_common_subgraph", report.prunedCommonSubgraph},
          {"pruned_subsumed", report.prunedSubsumed},
          {"checked", report.checked},
          {"verified", report.verified},
          {"refused", report.refused},
          {"refused_stretched_shapes", report.refusedStretched},
          {"keep_all", options.keepAll},
          {"pruned_no_gain", report.prunedNoGain},
          {"pruned_to_variable", report.prunedToVariable},
          {"pruned_dominated", report.prunedDominated},
          {"written", written ? report.written : 0},
          {"written_multi", written ? report.writtenMulti : 0},
          {"stop_reason", report.stopReason.empty() ? "completed" : report.stopReason},
          {"enumerate_seconds", report.enumerateSeconds},
          {"group_seconds", report.groupSeconds},
          {"verify_seconds", report.verifySeconds},
          {"seconds", report.totalSeconds},
          {"out", written ? options.out : ""},
          {"rules", rules},
          {"refused_examples", refused}};
}

int runSynthesize(const SynthesizeOptions& options) {
  if (options.ops.empty() == options.models.empty()) throw Error("rules synthesize: give either --ops LIST or --from-model MODEL...");
  synth::VocabularyOptions vocabularyOptions;
  vocabularyOptions.variablesPerShape = options.variablesPerShape;
  synth::SynthesisOptions synthesis;
  synth::SynthVocabulary vocabulary;
  if (!options.ops.empty()) {
    vocabulary = synth::vocabularyFromOps(splitList(options.ops), vocabularyOptions);
    synthesis.source = "--ops " + options.ops;
  } else {
    std::vector<Graph> graphs;
    onnx_io::ShapeBindings bindings;
    for (const std::string& text : options.inputShapes) onnx_io::parseInputShapeBinding(text, bindings);
    for (const std::string& text : options.dims) onnx_io::parseDimBinding(text, bindings);
    for (const std::string& path : options.models) graphs.push_back(onnx_io::importOnnxFile(path, bindings));
    std::vector<const Graph*> pointers;
    for (const Graph& g : graphs) pointers.push_back(&g);
    if (!options.noMine) vocabularyOptions.mineMaxOps = options.maxOps;
    vocabulary = synth::vocabularyFromModels(pointers, options.models, vocabularyOptions);
    synthesis.source = "--from-model";
    for (const std::string& path : options.models) synthesis.source += " " + path;
  }
  // Mining takes the left-hand sides from the models; the enumeration supplies right-hand sides,
  // which pay only when smaller (or as large and cheaper), so it need not go as deep.
  const bool mining = !options.models.empty() && !options.noMine;
  synthesis.limits.maxOps = mining ? (options.rhsMaxOps > 0 ? options.rhsMaxOps : std::max(1, options.maxOps - 1)) : options.maxOps;
  if (mining) {
    // Activations in models leave [-1, 1]: there a Clip to [0, 6] after adding 3 never clips, and
    // every hard-sigmoid spelling fingerprints as (x + 3) / 6.
    synthesis.limits.fingerprintLow = -8;
    synthesis.limits.fingerprintHigh = 8;
  }
  synthesis.limits.maxGraphs = options.maxGraphs;
  synthesis.limits.timeLimitSeconds = options.timeLimit;
  synthesis.limits.maxMemoryBytes = options.maxMemoryMb << 20;
  synthesis.limits.seed = options.seed;
  synthesis.keepAll = options.keepAll;
  synthesis.namePrefix = options.namePrefix;
  std::printf("synthesize: %zu op variants, %zu variables, graphs of up to %d ops\n", vocabulary.ops.size(), vocabulary.variables.size(),
              synthesis.limits.maxOps);
  for (const std::string& note : vocabulary.notes) std::printf("  note: %s\n", note.c_str());
  if (mining) {
    std::printf("mined:                  %llu trees of up to %d ops, %llu distinct patterns (%llu with an input no variable stands for, %llu of "
                "weights alone)%s\n",
                static_cast<unsigned long long>(vocabulary.mining.trees), options.maxOps, static_cast<unsigned long long>(vocabulary.mining.distinct),
                static_cast<unsigned long long>(vocabulary.mining.unmapped), static_cast<unsigned long long>(vocabulary.mining.weightsOnly),
                vocabulary.mining.stopReason.empty() ? "" : (" (stopped: " + vocabulary.mining.stopReason + ")").c_str());
    for (const auto& [model, count] : vocabulary.mining.perModel)
      std::printf("  %s: %llu distinct patterns\n", model.c_str(), static_cast<unsigned long long>(count));
  }
  std::fflush(stdout);

  synth::SynthesisReport report = synth::synthesizeRules(vocabulary, synthesis, [](const std::string& line) { reportProgress(line); });
  const bool stopped = !report.stopReason.empty();
  const bool write = !stopped || options.allowPartial;
  std::printf("enumerated graphs:      %llu (%llu fingerprinted, %.1f s)\n", static_cast<unsigned long long>(report.enumeratedGraphs),
              static_cast<unsigned long long>(report.fingerprintedGraphs), report.enumerateSeconds);
  std::printf("fingerprint groups:     %llu\n", static_cast<unsigned long long>(report.fingerprintGroups));
  if (mining)
    std::printf("mined pairs:            %llu (%llu of %llu patterns with an enumerated partner; %llu not evaluable on the variables)\n",
                static_cast<unsigned long long>(report.minedPairs), static_cast<unsigned long long>(report.minedPaired),
                static_cast<unsigned long long>(report.minedPatterns), static_cast<unsigned long long>(report.minedUnevaluable));
  std::printf("candidate pairs:        %llu\n", static_cast<unsigned long long>(report.candidatePairs));
  std::printf("pruned, renaming:       %llu\n", static_cast<unsigned long long>(report.prunedRenaming));
  std::printf("pruned, unwritable:     %llu\n", static_cast<unsigned long long>(report.prunedUnwritable));
  std::printf("pruned, decomposable:   %llu\n", static_cast<unsigned long long>(report.prunedDecomposable));
  std::printf("pruned, common subgraph:%llu\n", static_cast<unsigned long long>(report.prunedCommonSubgraph));
  std::printf("pruned, subsumed:       %llu\n", static_cast<unsigned long long>(report.prunedSubsumed));
  std::printf("verified:               %llu of %llu checked (%llu refused, %llu of them on stretched shapes; %.1f s)\n",
              static_cast<unsigned long long>(report.verified), static_cast<unsigned long long>(report.checked),
              static_cast<unsigned long long>(report.refused), static_cast<unsigned long long>(report.refusedStretched), report.verifySeconds);
  std::printf("dropped, no gain:       %llu%s\n", static_cast<unsigned long long>(report.prunedNoGain),
              options.keepAll ? " (--keep-all: kept)" : " (right-hand side neither smaller nor cheaper; --keep-all keeps them)");
  if (mining)
    std::printf("dropped, dominated:     %llu (a cheaper right-hand side for the same model pattern is written)\n",
                static_cast<unsigned long long>(report.prunedDominated));
  std::printf("dropped, to a variable: %llu%s\n", static_cast<unsigned long long>(report.prunedToVariable),
              options.keepAll ? " (--keep-all: kept)" : " (rewrites to a bare variable, not a cancellation, or to a constant such as x - x)");
  if (stopped) std::printf("stopped early: %s\n", report.stopReason.c_str());
  if (write) {
    std::string text = synth::packText(report, vocabulary, synthesis);
    parseRules(text, options.out, RuleFileFormat::Tessera); // what is written must load
    std::ofstream out(options.out, std::ios::binary | std::ios::trunc);
    if (!out) throw errorInFile(options.out, "cannot open for writing");
    out << text;
    if (!out) throw errorInFile(options.out, "write failed");
    std::printf("written:                %llu rules (%llu multi-pattern) to %s in %.1f s\n", static_cast<unsigned long long>(report.written),
                static_cast<unsigned long long>(report.writtenMulti), options.out.c_str(), report.totalSeconds);
  } else {
    std::printf("nothing written: enumeration stopped before --max-ops %d was exhausted (raise the budget, lower --max-ops, or pass "
                "--allow-partial)\n",
                options.maxOps);
  }
  if (!options.json.empty()) writeJsonReport(reportJson(report, vocabulary, options, write), options.json);
  return write ? 0 : 2;
}

} // namespace

void addRulesSynthesizeCommand(CLI::App& rules, CommandContext& context) {
  auto options = std::make_shared<SynthesizeOptions>();
  CLI::App* command = rules.add_subcommand("synthesize", "Generate verified rules from graphs of up to N ops (TASO's generator)");
  command->add_option("--ops", options->ops,
                      "Comma-separated op names as the rule DSL writes them: ewadd,ewmul,matmul,conv2d,relu,concat,split,enlarge,"
                      "transpose or IR names (Transpose, Softmax, ReduceMean, Add, ...)");
  command->add_option("--from-model", options->models, "Take the ops, attribute values and ranks from these ONNX models")->expected(1, -1);
  command->add_option("--input-shape", options->inputShapes, "A model input's whole shape, NAME=AxBxC (repeatable)");
  command->add_option("--dim", options->dims, "A symbolic dimension's size, NAME=VALUE (repeatable)");
  command->add_option("--max-ops", options->maxOps,
                      "Ops per enumerated graph; with --from-model, ops per left-hand side mined from the models")
      ->capture_default_str();
  command->add_option("--rhs-max-ops", options->rhsMaxOps,
                      "With --from-model: ops per enumerated right-hand side (default: --max-ops minus one)");
  command->add_flag("--no-mine", options->noMine,
                    "With --from-model: enumerate over the models' vocabulary only (TASO's plain generator), without their own trees as "
                    "left-hand sides");
  command->add_option("--vars-per-shape", options->variablesPerShape, "Input variables of each shape")->check(CLI::Range(1, 4))->capture_default_str();
  command->add_option("--time-limit", options->timeLimit, "Enumeration budget in seconds")->capture_default_str();
  command->add_option("--max-graphs", options->maxGraphs, "Enumeration budget in graphs")->capture_default_str();
  command->add_option("--max-memory-mb", options->maxMemoryMb, "Enumeration budget for fingerprints kept, MiB")->capture_default_str();
  command->add_option("--seed", options->seed, "Seed of the fingerprint inputs")->capture_default_str();
  command->add_flag("--allow-partial", options->allowPartial, "Write what a budget-stopped run verified");
  command->add_flag("--keep-all", options->keepAll,
                   "Write every verified rule (default: only those whose right-hand side is smaller or cheaper under the analytic cost "
                   "model, and no rewrite to a bare variable but cancellations)");
  command->add_option("--name-prefix", options->namePrefix, "Rule names: PREFIX-0001, ... (packs from several runs combine without clashes)")
      ->capture_default_str();
  command->add_option("--json", options->json, "Write the counts of each stage and the rules to this file");
  command->add_option("--out", options->out, "The rule pack to write")->required();
  command->callback([options, &context] { context.exitCode = runSynthesize(*options); });
}

} // namespace tessera::cli
