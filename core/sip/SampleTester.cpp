// The sample-testing harness and the driver that runs it in chunks.
#include "sip/SampleTester.h"

#include "support/Error.h"
#include "tune/Builder.h"
#include "tune/Subprocess.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace tessera::sip {

namespace {

namespace fs = std::filesystem;

// argv: TUNED CANDIDATE FIRST COUNT SEED ATOL RTOL OUTPUT_COUNT INPUT_COUNT...
// Sample s fills every input from its own xorshift stream (seed, s) with floats in [-1, 1), runs
// both kernels (the candidate's output starts as NaN, so an element it skips fails) and compares.
// Prints "done S" after each sample and "fail S ELEMENT GOT EXPECTED" at the first difference.
constexpr const char* kHarness = R"C(
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef void (*kernel_fn)(const float* const*, float*);

static kernel_fn load(const char* path) {
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) { fprintf(stderr, "dlopen: %s\n", dlerror()); exit(3); }
  kernel_fn kernel = (kernel_fn)dlsym(library, "tessera_kernel");
  if (!kernel) { fprintf(stderr, "dlsym: %s\n", dlerror()); exit(3); }
  return kernel;
}

static float* allocate(long long count) {
  float* data = (float*)aligned_alloc(64, ((size_t)count * sizeof(float) + 63) / 64 * 64 + 64);
  if (!data) { fprintf(stderr, "out of memory\n"); exit(4); }
  return data;
}

int main(int argc, char** argv) {
  if (argc < 10 || argc > 17) { fprintf(stderr, "usage: tester TUNED CANDIDATE FIRST COUNT SEED ATOL RTOL OUT IN...\n"); return 2; }
  kernel_fn tuned = load(argv[1]), candidate = load(argv[2]);
  long long first = atoll(argv[3]), count = atoll(argv[4]);
  unsigned long long seed = strtoull(argv[5], NULL, 10);
  double atol = atof(argv[6]), rtol = atof(argv[7]);
  long long out_count = atoll(argv[8]);
  int inputs_count = argc - 9;
  float* inputs[8];
  long long input_counts[8];
  for (int i = 0; i < inputs_count; ++i) { input_counts[i] = atoll(argv[9 + i]); inputs[i] = allocate(input_counts[i]); }
  float* expected = allocate(out_count);
  float* got = allocate(out_count);
  for (long long s = first; s < first + count; ++s) {
    unsigned long long state = (seed * 0x9E3779B97F4A7C15ULL) ^ ((unsigned long long)s * 0xD1B54A32D192ED03ULL) ^ 0x2545F4914F6CDD1DULL;
    if (!state) state = 1;
    for (int i = 0; i < inputs_count; ++i)
      for (long long k = 0; k < input_counts[i]; ++k) {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
        inputs[i][k] = (float)((double)((state * 0x2545F4914F6CDD1DULL) >> 40) / 16777216.0 * 2.0 - 1.0);
      }
    for (long long k = 0; k < out_count; ++k) got[k] = NAN;
    tuned((const float* const*)inputs, expected);
    candidate((const float* const*)inputs, got);
    for (long long k = 0; k < out_count; ++k) {
      double e = fabs((double)got[k] - (double)expected[k]);
      if (!(e <= atol + rtol * fabs((double)expected[k]))) {
        printf("fail %lld %lld %.9g %.9g\n", s, k, (double)got[k], (double)expected[k]);
        return 0;
      }
    }
    printf("done %lld\n", s);
  }
  return 0;
}
)C";

std::string buildTester(const SampleTestOptions& options) {
  const fs::path dir = options.cacheDir.empty() ? tune::defaultCacheDir() : options.cacheDir;
  const fs::path tester = dir / ("sip-tester-" + tune::contentHash(options.compiler + "\n" + kHarness));
  if (fs::exists(tester)) return tester.string();
  const std::string source = tester.string() + ".c";
  std::ofstream(source) << kHarness;
  const std::string temporary = tester.string() + ".tmp" + std::to_string(::getpid());
  tune::Command command{{options.compiler, "-O2", "-o", temporary, source, "-ldl", "-lm"}, {}, temporary + ".log"};
  tune::ProcessResult result = tune::runCommands({command}, 1, 120).at(0);
  if (!result.succeeded()) throw Error("cannot build SIP's sample tester with " + options.compiler + ": " + result.output.substr(0, 2000));
  fs::rename(temporary, tester);
  return tester.string();
}

int64_t elements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

} // namespace

SampleTestResult testOnSamples(const tune::Workload& workload, const std::string& tunedLibrary, const std::string& candidateLibrary,
                               const SampleTestOptions& options, const std::function<void(int64_t tested)>& onProgress) {
  const std::string tester = buildTester(options);
  SampleTestResult result;
  std::vector<std::string> sizes{std::to_string(elements(workload.outputShape()))};
  for (const auto& shape : workload.inputShapes()) sizes.push_back(std::to_string(elements(shape)));
  const int64_t chunk = std::max<int64_t>(options.samplesPerChild, 1);
  for (int64_t first = 0; first < options.samples; first += chunk) {
    const int64_t count = std::min(chunk, options.samples - first);
    tune::Command command;
    command.argv = {tester, tunedLibrary, candidateLibrary, std::to_string(first), std::to_string(count), std::to_string(options.seed),
                    std::to_string(options.atol), std::to_string(options.rtol)};
    command.argv.insert(command.argv.end(), sizes.begin(), sizes.end());
    command.env = {"OMP_NUM_THREADS=" + std::to_string(options.threads)};
    command.outputFile = (fs::path(options.cacheDir.empty() ? tune::defaultCacheDir() : options.cacheDir) /
                          ("sip-test-" + std::to_string(::getpid()) + ".out"))
                             .string();
    tune::ProcessResult process = tune::runCommands({command}, 1, 30 + options.secondsPerSample * static_cast<double>(count)).at(0);
    std::istringstream lines(process.output);
    int64_t done = first;
    for (std::string word; lines >> word;) {
      if (word == "done") {
        int64_t s = 0;
        lines >> s;
        done = s + 1;
      } else if (word == "fail") {
        int64_t s = 0, element = 0;
        std::string got, expected;
        lines >> s >> element >> got >> expected;
        result.tested = s + 1;
        result.error = "sample " + std::to_string(s) + ": element " + std::to_string(element) + " is " + got + ", the tuned kernel gives " + expected;
        return result;
      }
    }
    result.tested = done;
    if (!process.succeeded()) {
      result.tested = done + 1; // the sample it died on
      result.error = "sample " + std::to_string(done) + ": " + process.describe() + ": " + process.output.substr(0, 500);
      return result;
    }
    if (done != first + count) {
      result.error = "the tester stopped after sample " + std::to_string(done) + " of " + std::to_string(first + count) + ": " +
                     process.output.substr(0, 500);
      return result;
    }
    if (onProgress) onProgress(result.tested);
  }
  result.passed = true;
  return result;
}

} // namespace tessera::sip
