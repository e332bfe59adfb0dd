// Compiling candidates with the system C compiler.
#include "tune/Builder.h"

#include "tune/Subprocess.h"

#include "support/ContentHash.h"
#include "support/Error.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace tessera::tune {

namespace fs = std::filesystem;

std::string contentHash(const std::string& text) { return fnv1aHex(text); }

std::string defaultCacheDir() {
  fs::path dir = fs::temp_directory_path() / ("tessera-tune-" + std::to_string(::getuid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw Error("cannot create the kernel cache " + dir.string() + ": " + ec.message());
  return dir.string();
}

CompilerBuilder::CompilerBuilder(BuildOptions options) : options_(std::move(options)) {
  if (options_.cacheDir.empty()) options_.cacheDir = defaultCacheDir();
  std::error_code ec;
  fs::create_directories(options_.cacheDir, ec);
  if (ec) throw Error("cannot create the kernel cache " + options_.cacheDir + ": " + ec.message());
}

std::vector<BuildResult> CompilerBuilder::build(const std::vector<BuildInput>& inputs) {
  std::vector<BuildResult> results(inputs.size());
  std::vector<Command> commands;
  std::vector<size_t> compiled;
  std::vector<std::string> temporaries;
  const fs::path dir = options_.cacheDir;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].language != KernelLanguage::C && inputs[i].language != KernelLanguage::Asm) {
      results[i].error = std::string("the system compiler builds C, not ") + languageName(inputs[i].language);
      continue;
    }
    std::vector<std::string> argv{options_.compiler};
    argv.insert(argv.end(), options_.flags.begin(), options_.flags.end());
    if (inputs[i].openmp) argv.push_back("-fopenmp");
    std::string flags;
    for (const std::string& a : argv) flags += a + " ";
    const std::string key = contentHash(flags + "\n" + inputs[i].source);
    const fs::path library = dir / ("k" + key + ".so");
    if (fs::exists(library)) {
      results[i].library = library.string();
      results[i].cached = true;
      continue;
    }
    const fs::path source = dir / ("k" + key + (inputs[i].language == KernelLanguage::Asm ? ".s" : ".c"));
    std::ofstream(source) << inputs[i].source;
    // Into a private name, then renamed: another tuner on the same cache never sees half a file.
    const std::string temporary = library.string() + ".tmp" + std::to_string(::getpid()) + "_" + std::to_string(i);
    argv.insert(argv.end(), {"-o", temporary, source.string(), "-lm"});
    commands.push_back({argv, {}, temporary + ".log"});
    compiled.push_back(i);
    temporaries.push_back(temporary);
  }
  std::vector<ProcessResult> processes = runCommands(commands, options_.jobs, options_.timeoutSeconds);
  for (size_t c = 0; c < compiled.size(); ++c) {
    BuildResult& result = results[compiled[c]];
    result.seconds = processes[c].seconds;
    const fs::path library = fs::path(temporaries[c]).replace_extension(""); // drops ".tmp<pid>_<i>"
    std::error_code ec;
    if (processes[c].succeeded()) {
      fs::rename(temporaries[c], library, ec);
      if (!ec) {
        result.library = library.string();
        continue;
      }
    }
    fs::remove(temporaries[c], ec);
    std::string message = processes[c].output.substr(0, 2000);
    result.error = "compile failed (" + processes[c].describe() + ")" + (message.empty() ? "" : ": " + message);
  }
  return results;
}

} // namespace tessera::tune
