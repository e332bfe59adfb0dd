// `tessera-cli samples [--suite corrected|tensat] --out DIR`: writes the nine benchmark models of the
// TASO/TENSAT/PACT'24 suite, corrected (samples/) or as TENSAT builds them (samples/tensat/).
#include "CommandContext.h"
#include "Commands.h"

#include "generator/BenchmarkModels.h"
#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace tessera::cli {

namespace {

struct SamplesOptions {
  std::string outDir;
  std::vector<std::string> models;
  std::string suite = "corrected";
  bool list = false;
};

int runSamples(const SamplesOptions& options) {
  std::vector<std::string> names = options.models.empty() ? benchmarkModelNames() : options.models;
  if (options.list) {
    for (const std::string& name : benchmarkModelNames()) std::printf("%s\n", name.c_str());
    return 0;
  }
  BenchmarkSuite suite = parseBenchmarkSuite(options.suite);
  if (options.outDir.empty()) throw Error("samples: --out DIR is required");
  std::error_code ec;
  std::filesystem::create_directories(options.outDir, ec);
  if (ec) throw errorInFile(options.outDir, "cannot create directory: " + ec.message());
  for (size_t i = 0; i < names.size(); ++i) {
    reportProgress("[" + std::to_string(i + 1) + "/" + std::to_string(names.size()) + "] " + names[i]);
    Graph graph = buildBenchmarkModel(names[i], suite);
    std::string path = (std::filesystem::path(options.outDir) / (names[i] + ".onnx")).string();
    onnx_io::exportOnnxFile(graph, path);
    std::printf("%s: %zu ops -> %s (%ju bytes)\n", names[i].c_str(), graph.opCount(), path.c_str(),
                static_cast<uintmax_t>(std::filesystem::file_size(path)));
  }
  return 0;
}

} // namespace

void addSamplesCommand(CLI::App& app, CommandContext& context) {
  auto options = std::make_shared<SamplesOptions>();
  CLI::App* command = app.add_subcommand("samples", "Write the benchmark models (BERT, ResNeXt-50, ... MobileNet-v2) as ONNX files");
  command->add_option("--out", options->outDir, "Output directory");
  command->add_option("--model", options->models, "Only these models (repeatable)");
  command->add_option("--suite", options->suite,
                      "corrected (samples/, the default) or tensat (the graphs TENSAT and PACT'24 report on, samples/tensat/)");
  command->add_flag("--list", options->list, "List the model names");
  command->callback([options, &context] { context.exitCode = runSamples(*options); });
}

} // namespace tessera::cli
