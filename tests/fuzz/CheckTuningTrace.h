// What a tuning-trace fuzz input goes through: the bytes read as a trace (tune/Trace: what a tuning
// database record, a shared database or a tuned kernel hands the tuner), shown as text, and, when
// its workload parses, replayed on that workload's compute. The contract (Trace.h, Schedule.h): an
// accepted trace writes back to JSON that reads as the same trace; a trace that does not apply is
// a tessera::Error; nothing else escapes, and nothing crashes. Shared by fuzz_tuning_trace and
// tests/tune's corpus replay.
#pragma once

#include "FuzzSupport.h"

#include "support/Error.h"
#include "tune/Compute.h"
#include "tune/Schedule.h"
#include "tune/Trace.h"
#include "tune/Workload.h"

#include <string>
#include <string_view>

namespace tessera::fuzz {

inline FuzzOutcome checkTuningTrace(std::string_view text) {
  FuzzOutcome outcome;
  tune::Trace trace;
  try {
    trace = tune::traceFromJson(text);
  } catch (const Error& e) {
    if (std::string_view(e.what()).rfind("trace: ", 0) != 0) outcome.defect = std::string("the error does not say it is the trace: ") + e.what();
    return outcome;
  }
  (void)tune::traceToText(trace);
  try {
    if (!(tune::traceFromJson(tune::traceToJson(trace)) == trace)) outcome.defect = "the trace written back reads as another trace";
  } catch (const Error& e) {
    outcome.defect = std::string("the trace written back does not read: ") + e.what();
  }
  if (!outcome.defect.empty()) return outcome;
  tune::Workload workload;
  try {
    workload = tune::parseWorkload(trace.workload);
  } catch (const Error&) {
    return outcome; // a trace of no workload this build knows: refused where it is replayed
  }
  // A workload too large to lay out is not what this target looks for (replay is symbolic, but the
  // compute's buffers are sized from it).
  if (workload.flops() > 1e12) return outcome;
  try {
    (void)tune::replaySchedule(tune::computeOf(workload), trace, 1);
    outcome.accepted = true;
  } catch (const Error&) {
    // does not apply: refused by name
  }
  return outcome;
}

} // namespace tessera::fuzz
