// Reward against real environment steps, read from a training report of either RL agent (issue
// #33's sample-efficiency chart). The agents spend real steps differently, so each curve says what
// its points are (`measure`):
//  - xrlflow: after each training episode from the first whole round on, the mean return of the
//    last round (one episode a model, sampled from the policy), at the steps of all training
//    episodes so far. Its argmax evaluations are not in its reports, so its steps are a lower bound.
//  - rlflow: each argmax evaluation's mean return over the models, at the real steps training had
//    taken by then (the world model's data, lockstep dreams and the evaluations, all counted).
#pragma once

#include "rl/TrainingReport.h"

#include <string>
#include <vector>

namespace tessera {

struct RealStepPoint {
  double realSteps = 0;
  double reward = 0;
};

struct RealStepCurve : ReportRun {
  std::string variant; // how the agent trained when it matters to the curve: rlflow's dream mode ("branch"); else empty
  std::string measure; // what a point's reward is, in a few words
  std::vector<RealStepPoint> points; // in step order
};

// Throws tessera::Error naming `path` when it cannot be read, is not JSON, is another agent's, or
// lacks what its agent's curve is made of (an xrlflow curve with steps, rlflow evaluations).
RealStepCurve readRealStepCurve(const std::string& path);

} // namespace tessera
