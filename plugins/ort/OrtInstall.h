// Where the ONNX Runtime worker's parts are: Node.js, npm's onnxruntime-node (installed by
// .ci/install-deps.sh into third_party/ort) and the worker script, each overridable by environment.
#pragma once

#include <string>

namespace tessera::ort {

struct OrtInstall {
  std::string node;       // the Node.js executable
  std::string prefix;     // the npm prefix holding node_modules/onnxruntime-node
  std::string script;     // ort_worker.js
  int threads = 1;        // intra-op threads of every session
  bool cpuClock = false;  // time runs by the process's CPU time instead of the wall clock
  std::string problem;    // why ONNX Runtime cannot be used; empty when it can

  bool usable() const { return problem.empty(); }
};

// TESSERA_NODE (else `node` or `nodejs` on PATH), TESSERA_ORT_PREFIX (else the source tree's
// third_party/ort), TESSERA_ORT_WORKER (else plugins/ort/ort_worker.js of the source tree),
// TESSERA_ORT_THREADS (else 1, as the benchmarks of issue 13 run ORT), TESSERA_ORT_CLOCK=cpu
// (time by CPU time, for a machine that other processes load; else the wall clock).
OrtInstall findOrtInstall();

} // namespace tessera::ort
