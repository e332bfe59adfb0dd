#include "ir/Tensor.h"

#include <cassert>

namespace tessera {

Tensor Tensor::zeros(TensorType type) {
  Tensor t;
  t.type_ = std::move(type);
  if (t.holdsFloats())
    t.floats_.assign(static_cast<size_t>(t.numel()), 0.0f);
  else
    t.ints_.assign(static_cast<size_t>(t.numel()), 0);
  return t;
}

Tensor Tensor::fromFloats(Shape shape, std::vector<float> values) {
  Tensor t;
  t.type_ = TensorType{DType::Float32, std::move(shape)};
  assert(static_cast<int64_t>(values.size()) == t.numel() && "value count must match the shape");
  t.floats_ = std::move(values);
  return t;
}

Tensor Tensor::fromInts(TensorType type, std::vector<int64_t> values) {
  Tensor t;
  t.type_ = std::move(type);
  assert(!t.holdsFloats() && "fromInts needs an integer dtype");
  assert(static_cast<int64_t>(values.size()) == t.numel() && "value count must match the shape");
  t.ints_ = std::move(values);
  return t;
}

Tensor Tensor::splat(TensorType type, double value) {
  Tensor t;
  t.type_ = std::move(type);
  t.splat_ = true;
  if (t.holdsFloats())
    t.floats_.assign(1, static_cast<float>(value));
  else
    t.ints_.assign(1, static_cast<int64_t>(value));
  return t;
}

Tensor Tensor::materialized() const {
  if (!splat_) return *this;
  Tensor t;
  t.type_ = type_;
  if (holdsFloats())
    t.floats_.assign(static_cast<size_t>(numel()), floats_[0]);
  else
    t.ints_.assign(static_cast<size_t>(numel()), ints_[0]);
  return t;
}

std::vector<int64_t> Tensor::toInts() const {
  std::vector<int64_t> out(static_cast<size_t>(numel()));
  for (int64_t i = 0; i < numel(); ++i)
    out[static_cast<size_t>(i)] = holdsFloats() ? static_cast<int64_t>(floatAt(i)) : intAt(i);
  return out;
}

} // namespace tessera
