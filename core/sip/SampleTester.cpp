// The sample-testing harness and the driver that runs it in chunks.
#include "sip/SampleTester.h"

#include "support/Error.h"
#include "tune/Builder.h"
#include "tune/Subprocess.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <sched.h>
#include <unistd.h>

namespace tessera::sip {

namespace {

namespace fs = std::filesystem;

// argv: TUNED CANDIDATE FIRST COUNT SEED ATOL RTOL OUTPUT_COUNT INPUT_COUNT...
// Sample s fills input i's element k with a float in [-1, 1) from a counter-based hash of
// (seed, s, i, k), runs both kernels (the candidate's output starts as NaN, so an element it skips
// fails) and compares. The hash has no carried state, so the compiler vectorises the fill; with
// the comparison in one pass this halves the harness's own time (2.0 to 1.0 ms a sample of a
// 512^3 matmul's inputs; the two kernels take the rest). Prints "done S" after each sample and
// "fail S ELEMENT GOT EXPECTED" at the first difference.
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

/* Chris Wellons' lowbias32: a 32-bit mix whose every output bit depends on every input bit. */
static inline uint32_t mix32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
  return x;
}

static void fill(float* restrict data, long long count, uint32_t key) {
  for (long long k = 0; k < count; ++k)
    data[k] = (float)(mix32((uint32_t)k * 0x9E3779B9U + key) >> 8) * (2.0f / 16777216.0f) - 1.0f;
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
    const uint32_t sampleKey = mix32((uint32_t)seed ^ mix32((uint32_t)(seed >> 32) + 0x2545F491U)) ^ mix32((uint32_t)s * 0xD1B54A33U + 1U);
    for (int i = 0; i < inputs_count; ++i) fill(inputs[i], input_counts[i], mix32(sampleKey + (uint32_t)i * 0x85EBCA77U));
    for (long long k = 0; k < out_count; ++k) got[k] = NAN;
    tuned((const float* const*)inputs, expected);
    candidate((const float* const*)inputs, got);
    int bad = 0;
    for (long long k = 0; k < out_count; ++k) bad |= !(fabs((double)got[k] - (double)expected[k]) <= atol + rtol * fabs((double)expected[k]));
    if (bad)
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
  tune::Command command{{options.compiler, "-O3", "-o", temporary, source, "-ldl", "-lm"}, {}, temporary + ".log"};
  tune::ProcessResult result = tune::runCommands({command}, 1, 120).at(0);
  if (!result.succeeded()) throw Error("cannot build SIP's sample tester with " + options.compiler + ": " + result.output.substr(0, 2000));
  fs::rename(temporary, tester);
  return tester.string();
}

// The cores this process may run on (taskset's mask), not the machine's.
int usableCores() {
  cpu_set_t mask;
  if (::sched_getaffinity(0, sizeof mask, &mask) != 0) return 1;
  return std::max(1, CPU_COUNT(&mask));
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
  // This tests, it does not time: chunks run side by side on the cores this process may use.
  const int jobs = options.parallelChildren > 0 ? options.parallelChildren : std::max(1, usableCores() / std::max(1, options.threads));
  const std::string outputStem = (fs::path(options.cacheDir.empty() ? tune::defaultCacheDir() : options.cacheDir) /
                                  ("sip-test-" + std::to_string(::getpid()) + "-"))
                                     .string();
  for (int64_t first = 0; first < options.samples; first += chunk * jobs) {
    std::vector<tune::Command> commands;
    std::vector<int64_t> firsts;
    for (int64_t begin = first; begin < options.samples && begin < first + chunk * jobs; begin += chunk) {
      const int64_t count = std::min(chunk, options.samples - begin);
      tune::Command command;
      command.argv = {tester, tunedLibrary, candidateLibrary, std::to_string(begin), std::to_string(count), std::to_string(options.seed),
                      std::to_string(options.atol), std::to_string(options.rtol)};
      command.argv.insert(command.argv.end(), sizes.begin(), sizes.end());
      command.env = {"OMP_NUM_THREADS=" + std::to_string(options.threads)};
      command.outputFile = outputStem + std::to_string(commands.size()) + ".out";
      commands.push_back(std::move(command));
      firsts.push_back(begin);
    }
    const std::vector<tune::ProcessResult> processes =
        tune::runCommands(commands, jobs, 30 + options.secondsPerSample * static_cast<double>(chunk));
    // In sample order: the first failing sample is the one reported, as in a run of one child.
    for (size_t c = 0; c < processes.size(); ++c) {
      const tune::ProcessResult& process = processes[c];
      const int64_t begin = firsts[c];
      const int64_t end = std::min(options.samples, begin + chunk);
      std::istringstream lines(process.output);
      int64_t done = begin;
      for (std::string word; lines >> word;) {
        if (word == "done") {
          int64_t sample = 0;
          lines >> sample;
          done = sample + 1;
        } else if (word == "fail") {
          int64_t sample = 0, element = 0;
          std::string got, expected;
          lines >> sample >> element >> got >> expected;
          result.tested = sample + 1;
          result.error = "sample " + std::to_string(sample) + ": element " + std::to_string(element) + " is " + got +
                         ", the tuned kernel gives " + expected;
          return result;
        }
      }
      result.tested = done;
      if (!process.succeeded()) {
        result.tested = done + 1; // the sample it died on
        result.error = "sample " + std::to_string(done) + ": " + process.describe() + ": " + process.output.substr(0, 500);
        return result;
      }
      if (done != end) {
        result.error = "the tester stopped after sample " + std::to_string(done) + " of " + std::to_string(end) + ": " +
                       process.output.substr(0, 500);
        return result;
      }
    }
    if (onProgress) onProgress(result.tested);
  }
  result.passed = true;
  return result;
}

} // namespace tessera::sip
