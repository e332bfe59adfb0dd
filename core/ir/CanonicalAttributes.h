// One spelling per meaning: attributes are normalised (defaults dropped, axes made non-negative
// and sorted, Reshape's target made explicit) so that equal ops hash and compare equal in graphs
// and e-graphs, whichever importer, builder or rule produced them.
#pragma once

#include "ir/Attributes.h"
#include "ir/Op.h"
#include "ir/TensorType.h"

#include <span>

namespace tessera {

// Precondition: inferOutputTypes(kind, attrs, inputs) succeeds.
Attributes canonicalAttributes(OpKind kind, const Attributes& attrs, std::span<const TensorType> inputs);

} // namespace tessera
