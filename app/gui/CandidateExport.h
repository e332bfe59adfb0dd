// File ▸ Export Candidate as ONNX: the file is written for the runtime the user names, through
// core's exportForRuntime (run/DeployCheck.h), as `optimize --out F --deploy R` writes it: the
// candidate timed against the original there, the original written instead unless the candidate is
// faster, the file read back and verified, its metadata naming the runtime and the measured speedup.
#pragma once

#include "ir/Graph.h"

#include <memory>
#include <string>
#include <vector>

namespace tessera::gui {

struct CandidateExport {
  std::shared_ptr<const Graph> original;
  std::shared_ptr<const Graph> candidate;
  std::string costSpec;  // the cost model the candidate was priced with
  std::string modelPath; // the original's file, read again for its free dimensions; may be empty
  std::string path;      // where the file goes
  std::string runtime;   // "ort", "cpu", "cuda"; empty: written without timing
};

// Runs the device and the interpreter (seconds): call it off the UI thread. Returns one line for
// the log saying what was written and why. Throws tessera::Error when the file cannot be written or
// does not compute what the original does.
std::string exportCandidateFor(const CandidateExport& request);

// The runtimes a file can be checked on in this build: each backend plugin whose device is usable,
// ONNX Runtime (the reference runtime for exported files) first.
std::vector<std::string> exportRuntimes();

} // namespace tessera::gui
