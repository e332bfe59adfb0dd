// The measuring harness and the runner that drives it.
#include "tune/Runner.h"

#include "tune/Builder.h"
#include "tune/FlushFromCachesSource.h"
#include "tune/Subprocess.h"

#include "support/Error.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace tessera::tune {

namespace {

namespace fs = std::filesystem;

// argv: LIBRARY PROBLEM WARMUP REPEATS MIN_REPEAT_MS FLUSH. Prints "verify OK MAX_ERR WORST" and,
// when OK, one "time MS" per repeat. The output starts as NaN so an element the kernel never
// writes fails the check. FLUSH 1: before each timed run every input and the output are flushed
// from the caches (MetaSchedule's enable_cpu_cache_flush) by tessera_flush_from_caches, whose
// source (flushFromCachesSource) goes before this, and only the runs are timed.
constexpr const char* kHarnessMain = R"C(
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*kernel_fn)(const float* const*, float*);

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static float* read_floats(FILE* f, int64_t* count) {
  if (fread(count, sizeof *count, 1, f) != 1 || *count < 0) return NULL;
  size_t bytes = ((size_t)*count * sizeof(float) + 63) / 64 * 64 + 64;
  float* data = (float*)aligned_alloc(64, bytes);
  if (!data || fread(data, sizeof(float), (size_t)*count, f) != (size_t)*count) return NULL;
  return data;
}

int main(int argc, char** argv) {
  if (argc != 7) { fprintf(stderr, "usage: harness LIBRARY PROBLEM WARMUP REPEATS MIN_REPEAT_MS FLUSH\n"); return 2; }
  void* library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!library) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 3; }
  kernel_fn kernel = (kernel_fn)dlsym(library, "tessera_kernel");
  if (!kernel) { fprintf(stderr, "dlsym: %s\n", dlerror()); return 3; }
  FILE* f = fopen(argv[2], "rb");
  char magic[4];
  int64_t inputs_count = 0;
  if (!f || fread(magic, 1, 4, f) != 4 || memcmp(magic, "TSRT", 4) != 0 || fread(&inputs_count, 8, 1, f) != 1 ||
      inputs_count < 1 || inputs_count > 8) { fprintf(stderr, "bad problem file %s\n", argv[2]); return 4; }
  const float* inputs[8];
  int64_t input_counts[8];
  for (int64_t i = 0; i < inputs_count; ++i) {
    int64_t count = 0;
    if (!(inputs[i] = read_floats(f, &count))) { fprintf(stderr, "bad problem input %lld\n", (long long)i); return 4; }
    input_counts[i] = count;
  }
  int64_t out_count = 0;
  float* expected = read_floats(f, &out_count);
  double tol[2];
  if (!expected || fread(tol, sizeof(double), 2, f) != 2) { fprintf(stderr, "bad problem output\n"); return 4; }
  fclose(f);
  float* out = (float*)aligned_alloc(64, ((size_t)out_count * sizeof(float) + 63) / 64 * 64 + 64);
  for (int64_t i = 0; i < out_count; ++i) out[i] = NAN;
  kernel(inputs, out);
  double max_err = 0;
  long long worst = -1;
  int ok = 1;
  for (int64_t i = 0; i < out_count; ++i) {
    double e = fabs((double)out[i] - (double)expected[i]);
    if (isnan(e)) e = INFINITY;
    if (!(e <= tol[0] + tol[1] * fabs((double)expected[i]))) ok = 0;
    if (e > max_err || worst < 0) { max_err = e; worst = (long long)i; }
  }
  printf("verify %d %.9g %lld\n", ok, max_err, worst);
  fflush(stdout);
  if (!ok) return 0;
  int warmup = atoi(argv[3]), repeats = atoi(argv[4]);
  double min_ms = atof(argv[5]);
  int flush = atoi(argv[6]) == 1;
  double start = now_ms();
  kernel(inputs, out);
  double once = now_ms() - start;
  for (int i = 1; i < warmup; ++i) kernel(inputs, out);
  long number = once >= min_ms ? 1 : (long)ceil(min_ms / (once > 1e-4 ? once : 1e-4));
  if (number > 1000000) number = 1000000;
  for (int r = 0; r < repeats; ++r) {
    if (!flush) {
      start = now_ms();
      for (long n = 0; n < number; ++n) kernel(inputs, out);
      printf("time %.9g\n", (now_ms() - start) / (double)number);
      continue;
    }
    double total = 0;
    for (long n = 0; n < number; ++n) {
      for (int64_t i = 0; i < inputs_count; ++i) tessera_flush_from_caches(inputs[i], (size_t)input_counts[i] * sizeof(float));
      tessera_flush_from_caches(out, (size_t)out_count * sizeof(float));
      start = now_ms();
      kernel(inputs, out);
      total += now_ms() - start;
    }
    printf("time %.9g\n", total / (double)number);
  }
  return 0;
}
)C";

void writeProblem(const std::string& path, const Problem& problem) {
  std::ofstream out(path, std::ios::binary);
  auto writeFloats = [&](const std::vector<float>& values) {
    int64_t count = static_cast<int64_t>(values.size());
    out.write(reinterpret_cast<const char*>(&count), sizeof count);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
  };
  out.write("TSRT", 4);
  int64_t inputs = static_cast<int64_t>(problem.inputs.size());
  out.write(reinterpret_cast<const char*>(&inputs), sizeof inputs);
  for (const auto& input : problem.inputs) writeFloats(input);
  writeFloats(problem.expected);
  const double tolerance[2] = {problem.atol, problem.rtol};
  out.write(reinterpret_cast<const char*>(tolerance), sizeof tolerance);
  if (!out) throw Error("cannot write the tuning problem " + path);
}

std::string buildHarness(const RunnerOptions& options) {
  const std::string harnessSource = std::string(flushFromCachesSource()) + kHarnessMain;
  const fs::path dir = options.cacheDir;
  const fs::path harness = dir / ("harness-" + contentHash(options.compiler + "\n" + harnessSource));
  if (fs::exists(harness)) return harness.string();
  const fs::path source = harness.string() + ".c";
  std::ofstream(source) << harnessSource;
  const std::string temporary = harness.string() + ".tmp" + std::to_string(::getpid());
  Command command{{options.compiler, "-O2", "-o", temporary, source.string(), "-ldl", "-lm"}, {}, temporary + ".log"};
  ProcessResult result = runCommands({command}, 1, 120).at(0);
  if (!result.succeeded()) throw Error("cannot build the tuning harness with " + options.compiler + ": " + result.output);
  fs::rename(temporary, harness);
  return harness.string();
}

} // namespace

LocalRunner::LocalRunner(const Problem& problem, RunnerOptions options) : options_(std::move(options)) {
  if (options_.cacheDir.empty()) options_.cacheDir = defaultCacheDir();
  harness_ = buildHarness(options_);
  static int counter = 0;
  problemFile_ = (fs::path(options_.cacheDir) / ("problem-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + ".bin")).string();
  writeProblem(problemFile_, problem);
}

LocalRunner::~LocalRunner() {
  std::error_code ec;
  fs::remove(problemFile_, ec);
}

RunResult LocalRunner::run(const std::string& library) {
  Command command;
  command.argv = {harness_, library, problemFile_, std::to_string(options_.warmup), std::to_string(options_.repeats),
                  std::to_string(options_.minRepeatMs), options_.flushCaches ? "1" : "0"};
  command.env = {"OMP_NUM_THREADS=" + std::to_string(options_.threads)};
  if (options_.pinThreads) command.env.insert(command.env.end(), {"OMP_PROC_BIND=close", "OMP_PLACES=cores"});
  command.outputFile = problemFile_ + ".out";
  ProcessResult process = runCommands({command}, 1, options_.timeoutSeconds).at(0);

  RunResult result;
  std::istringstream lines(process.output);
  std::string word;
  bool verified = false, sawVerify = false;
  while (lines >> word) {
    if (word == "verify") {
      int ok = 0;
      long long worst = 0;
      lines >> ok >> result.maxAbsError >> worst;
      sawVerify = true;
      verified = ok == 1;
      if (!verified) result.error = "element " + std::to_string(worst) + " is off by " + std::to_string(result.maxAbsError);
    } else if (word == "time") {
      double ms = 0;
      lines >> ms;
      result.runMs.push_back(ms);
    }
  }
  if (process.timedOut) {
    result.status = TrialStatus::Timeout;
    result.error = process.describe();
    return result;
  }
  if (process.signal != 0) {
    result.status = TrialStatus::Crashed;
    result.error = process.describe();
    return result;
  }
  if (process.exitCode != 0 || !sawVerify) {
    result.status = TrialStatus::RuntimeError;
    result.error = process.describe() + ": " + process.output.substr(0, 2000);
    return result;
  }
  if (!verified) {
    result.status = TrialStatus::WrongResult;
    return result;
  }
  if (result.runMs.empty()) {
    result.status = TrialStatus::RuntimeError;
    result.error = "no timings: " + process.output.substr(0, 2000);
    return result;
  }
  std::vector<double> sorted = result.runMs;
  std::sort(sorted.begin(), sorted.end());
  result.medianMs = sorted[sorted.size() / 2];
  result.status = TrialStatus::Ok;
  return result;
}

} // namespace tessera::tune
