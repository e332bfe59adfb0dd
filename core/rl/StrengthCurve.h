// Self-play strength by generation, read from a PUCT training report (`rl train --agent puct
// --json`, issue #37): each generation's mean verified speedup of the games it played, and the
// final network's over every model.
#pragma once

#include "rl/TrainingReport.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera {

struct GenerationStrength {
  int generation = 0;          // from 1; generation 1 plays with the untrained network
  double meanSpeedupPct = 0;   // the mean verified speedup of its games
};

struct StrengthCurve : ReportRun {
  std::string variant; // how self-play explored or learnt when it matters: "root_noise 0.25", "visits" (a target other than the default); else empty
  std::vector<GenerationStrength> generations; // in generation order
  std::optional<double> finalMeanSpeedupPct;   // the final network, one game a model
};

// Throws tessera::Error naming `path` when it cannot be read, is not JSON, is another agent's
// report, or has no generations of finite strength.
StrengthCurve readStrengthCurve(const std::string& path);

} // namespace tessera
