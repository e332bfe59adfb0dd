#include "ir/ContiguousSplit.h"

#include "ir/ShapeInference.h"

namespace tessera {

bool isContiguousSplit(OpKind kind, const Attributes& attrs, const TensorType& input) {
  if (kind != OpKind::Split || input.rank() == 0) return false;
  const int64_t axis = normalizeAxis(attrs.getInt("axis", 0), input.rank());
  for (int64_t d = 0; d < axis; ++d)
    if (input.shape[static_cast<size_t>(d)] != 1) return false;
  return true;
}

} // namespace tessera
