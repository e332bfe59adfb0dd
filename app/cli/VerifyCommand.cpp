// `tessera-cli verify A.onnx B.onnx`: are two models the same function? Same seeded random inputs
// and weights (by name) into both; exit 1 with the worst element when they differ.
#include "CommandContext.h"
#include "Commands.h"
#include "ModelShapeOptions.h"

#include "interp/Verify.h"
#include "onnx/OnnxImport.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace tessera::cli {

namespace {

struct VerifyCommandOptions {
  std::string original;
  std::string candidate;
  VerifyOptions verify;
  bool ownWeights = false;
  std::string metric{metricName(VerifyOptions{}.metric)};
  std::string json;
  ModelShapeOptions shapes;
};

int runVerify(const VerifyCommandOptions& options) {
  // Both models at the same sizes; a dimension the candidate pinned is simply not open in it.
  std::vector<Graph> models = options.shapes.importEach({options.original, options.candidate});
  const Graph& original = models[0];
  const Graph& candidate = models[1];
  VerifyOptions verify = options.verify;
  verify.randomizeWeights = !options.ownWeights;
  verify.metric = *parseMetric(options.metric); // CLI11 checked the name
  VerifyResult result = verifyEquivalent(original, candidate, verify);

  nlohmann::json report{{"original", options.original},   {"candidate", options.candidate},
                        {"verified", result.equivalent},  {"max_abs_err", result.maxAbsError},
                        {"max_rel_err", result.maxRelError}, {"trials", verify.trials},
                        {"rtol", verify.rtol},            {"atol", verify.atol},
                        {"verify_metric", result.metric}, {"noise_to_signal", result.noiseToSignal}};
  if (!result.equivalent) report["worst"] = result.worst;
  if (!options.json.empty()) writeJsonReport(report, options.json);

  if (result.equivalent) {
    std::printf("equivalent: %d trials, max abs error %.3g, max rel error %.3g\n  metric %s\n", verify.trials,
                result.maxAbsError, result.maxRelError, result.metric.c_str());
    return 0;
  }
  std::printf("NOT equivalent: %s (max abs error %.3g)\n  metric %s\n", result.worst.c_str(), result.maxAbsError,
              result.metric.c_str());
  return 1;
}

} // namespace

void addVerifyCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<VerifyCommandOptions>();
  CLI::App* command = app.add_subcommand("verify", "Check that two models compute the same outputs on random inputs and weights");
  command->add_option("original", options->original, "Reference ONNX model")->required();
  command->add_option("candidate", options->candidate, "ONNX model to check")->required();
  command->add_option("--trials", options->verify.trials, "Random trials")->check(CLI::Range(1, 1000))->capture_default_str();
  command->add_option("--rtol", options->verify.rtol, "Relative tolerance")->check(CLI::NonNegativeNumber)->capture_default_str();
  command->add_option("--atol", options->verify.atol, "Absolute tolerance")->check(CLI::NonNegativeNumber)->capture_default_str();
  command->add_option("--seed", options->verify.seed, "Seed for inputs and weights")->capture_default_str();
  command->add_option("--metric", options->metric, "elementwise, or noise-scaled (also allows the float32 noise of the original)")
      ->check(CLI::IsMember({std::string(metricName(VerifyMetric::Elementwise)), std::string(metricName(VerifyMetric::NoiseScaled))}))
      ->capture_default_str();
  command->add_option("--noise-factor", options->verify.noiseFactor, "noise-scaled: multiple of the noise allowed")
      ->check(CLI::NonNegativeNumber)->capture_default_str();
  command->add_flag("--own-weights", options->ownWeights, "Use each model's stored weights instead of shared random ones");
  command->add_option("--json", options->json, "Also write a JSON report");
  addModelShapeOptions(command, options->shapes);
  command->callback([options, &context] { context.exitCode = runVerify(*options); });
}

} // namespace tessera::cli
