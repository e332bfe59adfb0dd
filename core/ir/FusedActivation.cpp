#include "ir/FusedActivation.h"

namespace tessera {

std::optional<OpKind> activationOp(Activation activation) {
  switch (activation) {
  case Activation::Relu: return OpKind::Relu;
  case Activation::Sigmoid: return OpKind::Sigmoid;
  case Activation::Tanh: return OpKind::Tanh;
  case Activation::None: return std::nullopt;
  }
  return std::nullopt;
}

} // namespace tessera
