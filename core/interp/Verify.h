// Checks that two graphs compute the same function: same seeded random inputs and weights (by
// name) into both, outputs compared element by element within tolerance.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

// How far apart two outputs may be. Float32 reassociation (a long matmul chain regrouped, sums
// reordered) moves an output by roughly what float32 rounding of the original's own inputs and
// weights moves it, which can dwarf a fixed relative tolerance where terms cancel. A wrong or
// transposed weight moves it by the order of the output itself.
enum class VerifyMetric {
  // |candidate - original| <= atol + rtol * |original|
  Elementwise,
  // ... + noiseFactor * sigma, sigma = RMS change of that output of the original when every input
  // and weight element is scaled by (1 + u * r), r uniform in [-1, 1), u = noisePerturbation.
  NoiseScaled,
};

struct VerifyOptions {
  int trials = 3; // at least one runs
  double rtol = 1e-3;
  double atol = 1e-5;
  uint64_t seed = 1;
  bool randomizeWeights = true; // false: use each graph's own weights
  VerifyMetric metric = VerifyMetric::NoiseScaled;
  double noiseFactor = 4;
  double noisePerturbation = 0x1p-16; // 512 float32 ulps: the rounding of a few thousand-term sums
  // NoiseScaled: above this noise-to-signal ratio the check is refused. Its allowance, noiseFactor
  // sigma, would then be more than 4 % of the output's RMS, and a candidate wrong by that much (a
  // dropped small term, a bias added twice) would pass. Well-conditioned models sit near 1e-5.
  double maxNoiseToSignal = 0.01;
};

struct VerifyResult {
  bool equivalent = false;
  double maxAbsError = 0;
  double maxRelError = 0;
  // NoiseScaled: the largest sigma / RMS(output) over outputs and trials, how much float32 noise
  // alone moves the original (near 1: the outputs are noise, and any candidate would pass). Above
  // VerifyOptions::maxNoiseToSignal the result is not equivalent, whatever the outputs.
  double noiseToSignal = 0;
  bool tooNoisy = false; // refused for noise: the outputs may well agree, but the check cannot tell
  // The rule applied, e.g. "noise-scaled: |a-b| <= 1e-05 + 0.001*|b| + 4*sigma (inputs and weights
  // perturbed by 2^-16)"; reports carry it so a reader knows what "verified" meant.
  std::string metric;
  // The element furthest beyond tolerance, candidate value first: "output 0 (logits) element
  // [0,17]: 0.51 vs 0.49"; or why the graphs cannot match (different inputs, output shapes).
  std::string worst;
};

// An element matches when it is within the metric's bound of the original's, or both are NaN.
// Throws tessera::Error when either graph cannot be run at all (an opaque op, a non-float input).
std::string describeMetric(const VerifyOptions& options);
std::string_view metricName(VerifyMetric metric);
// "elementwise" or "noise-scaled"; nullopt for anything else.
std::optional<VerifyMetric> parseMetric(std::string_view name);

VerifyResult verifyEquivalent(const Graph& original, const Graph& candidate, const VerifyOptions& options = {});

} // namespace tessera
