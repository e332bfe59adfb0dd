// A Split whose pieces lie one after another in memory: every dimension before its axis is 1 (a
// batch-1 split along channels, a row vector split along its columns). An executor can then hand
// out its outputs as slices of the input's buffer and copy nothing; TASO prices such splits at 0.
#pragma once

#include "ir/Attributes.h"
#include "ir/Op.h"
#include "ir/TensorType.h"

namespace tessera {

bool isContiguousSplit(OpKind kind, const Attributes& attrs, const TensorType& input);

} // namespace tessera
