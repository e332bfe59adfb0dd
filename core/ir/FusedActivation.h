// The op a Conv's or MatMul's fused `activation` attribute stands for (encoding in Attributes.h):
// what an export writes after the op, and what a runtime that fuses at load fuses back.
#pragma once

#include "ir/Attributes.h"
#include "ir/Op.h"

#include <optional>

namespace tessera {

// Relu for Activation::Relu, ...; none for None and for a value outside the encoding.
std::optional<OpKind> activationOp(Activation activation);

} // namespace tessera
