// The builder (MetaSchedule's LocalBuilder): C sources compiled by the system compiler into
// shared libraries, several at a time, cached by a hash of the source and the flags so a
// candidate seen before (in this run or an earlier one) is not compiled again.
#pragma once

#include "tune/KernelLanguage.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::tune {

struct BuildOptions {
  std::string compiler = "cc";
  // GCC's value numbering walks aliases for every load of a deeply unrolled body: capping its
  // queries (default 1000) cut a 512-step kernel's compile by about 30 % and left it as fast.
  std::vector<std::string> flags{"-O3", "-march=native", "-fPIC", "-shared", "-fopenmp-simd",
                                 "--param=sccvn-max-alias-queries-per-access=100"};
  std::string cacheDir; // empty: <temp>/tessera-tune-<uid>
  int jobs = 2;
  // MetaSchedule's LocalBuilder timeout: a kernel that takes longer to compile (GCC on a deeply
  // unrolled nest) is a failed trial the model learns from, not minutes of a 200-trial budget.
  double timeoutSeconds = 30;
};

struct BuildInput {
  std::string source;
  bool openmp = false; // adds -fopenmp (links libgomp)
  KernelLanguage language = KernelLanguage::C;
};

struct BuildResult {
  std::string library; // the .so; empty when the build failed
  std::string error;   // the compiler's message (its first lines) when it failed
  bool cached = false;
  double seconds = 0;
  bool ok() const { return !library.empty(); }
};

class Builder {
public:
  virtual ~Builder() = default;
  virtual std::vector<BuildResult> build(const std::vector<BuildInput>& inputs) = 0;
};

// C and assembly (SIP's refined kernels) through the system compiler; an input in another language
// is a failed build saying so.
class CompilerBuilder : public Builder {
public:
  explicit CompilerBuilder(BuildOptions options = {});
  std::vector<BuildResult> build(const std::vector<BuildInput>& inputs) override;
  const BuildOptions& options() const { return options_; }

private:
  BuildOptions options_;
};

// The CPU builder of this build: LLVM IR compiled in-process and C through the system compiler
// (LlvmBuilder, from the codegen module) when llvmAvailable(), else C only (CompilerBuilder).
std::unique_ptr<Builder> makeCpuBuilder(BuildOptions options = {});

// support/ContentHash.h's FNV-1a in hex: the cache key of a source and the structural hash of a kernel.
std::string contentHash(const std::string& text);
// <temp>/tessera-tune-<uid>, created when absent.
std::string defaultCacheDir();

} // namespace tessera::tune
