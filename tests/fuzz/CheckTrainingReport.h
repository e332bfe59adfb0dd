// What a training-report fuzz input goes through: the bytes written as a report file and read by
// each chart the explorer's Training tab draws from one (rl/TrainingReport: the reward curve,
// rl/RealStepCurve: reward against real steps, rl/StrengthCurve: PUCT's strength by generation).
// The contract (those headers): a chart read has finite numbers only; a report without one is a
// tessera::Error naming the file, never a crash. Shared by fuzz_training_report and tests/rl's
// corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "rl/RealStepCurve.h"
#include "rl/StrengthCurve.h"
#include "rl/TrainingReport.h"
#include "support/Error.h"

#include <cmath>
#include <filesystem>
#include <functional>
#include <string>

namespace tessera::fuzz {

// Writes `bytes` to `scratch` and reads every chart from it. Accepted: at least one chart read.
inline FuzzOutcome checkTrainingReport(const std::string& bytes, const std::string& scratch) {
  writeBytes(scratch, bytes);
  FuzzOutcome outcome;
  auto readChart = [&](const char* chart, const std::function<bool()>& readAndCheckFinite) {
    try {
      if (!readAndCheckFinite()) outcome.defect = std::string("the ") + chart + " has a number that is not finite";
      outcome.accepted = true;
    } catch (const Error& e) {
      if (std::string(e.what()).rfind(scratch + ": ", 0) != 0) outcome.defect = std::string("the error does not name the file: ") + e.what();
    }
  };
  readChart("reward curve", [&] {
    for (const EpisodeReward& episode : readTrainingCurve(scratch).episodes)
      if (!std::isfinite(episode.reward)) return false;
    return true;
  });
  readChart("real-step curve", [&] {
    for (const RealStepPoint& point : readRealStepCurve(scratch).points)
      if (!std::isfinite(point.realSteps) || !std::isfinite(point.reward)) return false;
    return true;
  });
  readChart("strength curve", [&] {
    const StrengthCurve curve = readStrengthCurve(scratch);
    for (const GenerationStrength& generation : curve.generations)
      if (!std::isfinite(generation.meanSpeedupPct)) return false;
    return !curve.finalMeanSpeedupPct || std::isfinite(*curve.finalMeanSpeedupPct);
  });
  std::filesystem::remove(scratch);
  return outcome;
}

} // namespace tessera::fuzz
