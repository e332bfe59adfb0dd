// What a workload fuzz input goes through: the tuner's workload parser (`matmul:MxNxK`,
// `bmm:BxMxNxK`, `conv2d:NxCxHxW,OxCxKhxKw[,sS][,pP]`, each `[,bias][,relu]`), the strings
// `tessera-cli tune` and the tuning database's keys hand it. What it accepts must have positive
// shapes and flops, and its canonical key must parse back to the same workload; what it refuses is a
// tessera::Error quoting the string. Shared by fuzz_workload and tests/tune's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "support/Error.h"
#include "tune/Workload.h"

#include <string>
#include <string_view>

namespace tessera::fuzz {

inline FuzzOutcome checkWorkload(std::string_view text) {
  FuzzOutcome outcome;
  tune::Workload workload;
  try {
    workload = tune::parseWorkload(text);
  } catch (const Error& e) {
    // what() is a C string: a NUL in the input ends the message there.
    const std::string quoted = "workload '" + std::string(text) + "': ";
    if (std::string_view(e.what()).rfind(quoted.substr(0, quoted.find('\0')), 0) != 0)
      outcome.defect = std::string("the error does not quote the string: ") + e.what();
    return outcome;
  }
  outcome.accepted = true;
  auto shapes = workload.inputShapes();
  shapes.push_back(workload.outputShape());
  for (const auto& shape : shapes)
    for (int64_t extent : shape)
      if (extent <= 0) outcome.defect = "an accepted workload has a shape extent " + std::to_string(extent) + ": " + workload.key();
  if (!(workload.flops() > 0)) outcome.defect = "an accepted workload has no flops: " + workload.key();
  try {
    if (!(tune::parseWorkload(workload.key()) == workload)) outcome.defect = "the key reads back as another workload: " + workload.key();
  } catch (const Error& e) {
    outcome.defect = std::string("the key does not read back: ") + e.what();
  }
  return outcome;
}

} // namespace tessera::fuzz
