// Where and how the explorer times two graphs end to end ("Time end to end" in the compare view).
// The device follows the cost model: measured:<backend> times on that backend; any other model on
// the CPU backend, so an analytic prediction can be checked against a real run too. The timing is
// do no harm's (search/DoNoHarm.h), as a run's: both graphs checked on the executor first, and a
// candidate found faster timed again on fresh pairs, the second comparison deciding.
#pragma once

#include "cost/EndToEndComparison.h"
#include "ir/Graph.h"

#include <string>

namespace tessera::gui {

struct TimingBackend {
  std::string name; // "cpu", "cuda", "ort"; empty when this build cannot time graphs
  std::string why;  // why name is empty
};

TimingBackend timingBackendFor(const std::string& costSpec);

// Times `candidate` against `original` with the backend's default protocol and returns the
// deciding comparison, once no search of the explorer runs (MeasuringPause.h). Loads the backend
// plugins on a first use: call it off the UI thread.
// Throws tessera::Error saying why the backend cannot run here, which graph it cannot run, or
// which graph it computes differently from the reference interpreter.
EndToEndComparison timeEndToEnd(const std::string& backend, const Graph& original, const Graph& candidate);

} // namespace tessera::gui
