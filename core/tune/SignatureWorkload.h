// Which tunable workload an op computes: a float32 MatMul, Gemm or Conv signature whose exact
// semantics a tuned kernel reproduces, mapped onto its Workload. The model's tunable kernels
// (ModelWorkloads) and the CPU backend's tuned ops (which kernel an op may run) both ask here.
#pragma once

#include "tune/Workload.h"

#include "cost/OpSignature.h"

#include <optional>
#include <string>

namespace tessera::tune {

// nullopt when the op is not a tunable workload; `why` (if given) is then set for a heavy op the
// tuner cannot express ("a grouped convolution", "a transposed Gemm", ...) and left empty for an
// op that is not a matmul or conv at all.
std::optional<Workload> tunableWorkload(const OpSignature& signature, std::string* why = nullptr);

} // namespace tessera::tune
