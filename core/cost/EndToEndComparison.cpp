#include "cost/EndToEndComparison.h"

#include "support/Error.h"

#include <chrono>
#include <cstdio>
#include <memory>

namespace tessera {

EndToEndOptions defaultEndToEndOptions(const std::string& backend) {
  EndToEndOptions options;
  if (backend == "cuda") {
    options.warmup = 100;
    options.minPairs = 30;
    options.maxPairs = 200;
  }
  return options;
}

std::string EndToEndComparison::method() const {
  char text[256];
  std::snprintf(text, sizeof text,
                "%d interleaved pairs after %d warm-up runs each; speedup = 1 - median of paired time ratios, "
                "%.0f %% percentile bootstrap interval over pairs",
                pairs, warmup, speedup.confidence * 100);
  return text;
}

std::string EndToEndComparison::describeSpeedup() const {
  char text[160];
  std::snprintf(text, sizeof text, "%+.2f %% [%+.2f, %+.2f] (%.0f %% interval, %d pairs)", speedup.pct, speedup.lowPct,
                speedup.highPct, speedup.confidence * 100, pairs);
  return text;
}

EndToEndComparison compareEndToEnd(GraphExecutor& executor, const Graph& original, const Graph& candidate,
                                   const EndToEndOptions& options) {
  if (options.minPairs < 2 || options.maxPairs < options.minPairs)
    throw Error("end-to-end timing needs 2 <= min pairs <= max pairs, got " + std::to_string(options.minPairs) + " and " +
                std::to_string(options.maxPairs));
  const auto start = std::chrono::steady_clock::now();
  const auto elapsedSeconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  std::unique_ptr<TimedGraph> a = executor.prepareTiming(original);
  std::unique_ptr<TimedGraph> b = executor.prepareTiming(candidate);
  for (int i = 0; i < options.warmup; ++i) {
    a->runMs();
    b->runMs();
  }
  EndToEndComparison result;
  result.device = executor.device();
  result.warmup = options.warmup;
  std::vector<double> originalMs, candidateMs;
  while (static_cast<int>(originalMs.size()) < options.maxPairs) {
    // Alternate which graph goes first, so that neither always runs on the other's warm caches.
    if (originalMs.size() % 2 == 0) {
      originalMs.push_back(a->runMs());
      candidateMs.push_back(b->runMs());
    } else {
      candidateMs.push_back(b->runMs());
      originalMs.push_back(a->runMs());
    }
    // Looks at the interval every minPairs pairs only: each look is another chance for noise to
    // pass for a difference, so looking after every pair would keep slower candidates more often.
    if (originalMs.size() % static_cast<size_t>(options.minPairs) != 0) continue;
    result.speedup = pairedSpeedup(originalMs, candidateMs, options.confidence, options.seed);
    const bool decided = result.speedup.lowPct > 0 || result.speedup.highPct < 0;
    const bool narrow = (result.speedup.highPct - result.speedup.lowPct) / 2 <= options.targetHalfWidthPct;
    if (decided || narrow || elapsedSeconds() > options.timeBudgetSeconds) break;
  }
  result.pairs = static_cast<int>(originalMs.size());
  result.speedup = pairedSpeedup(originalMs, candidateMs, options.confidence, options.seed);
  result.originalMs = medianOf(originalMs);
  result.candidateMs = medianOf(candidateMs);
  return result;
}

} // namespace tessera
