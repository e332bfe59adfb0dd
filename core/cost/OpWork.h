// How much work an op does: floating-point operations and bytes moved. One formula per op; the
// analytic cost model and the GUI's FLOPs column read it.
#pragma once

#include "cost/OpSignature.h"

#include <cstdint>

namespace tessera {

struct OpWork {
  double flops = 0;
  double bytes = 0;     // inputs read + outputs written, 4 bytes per float32 element
  bool isFree = false;  // a view or a re-labelling the runtime does not execute (TASO: cost 0)
};

OpWork opWork(const OpSignature& signature);

} // namespace tessera
