// A tensor value: type plus data. Float types are held as float32, integer types and Bool as
// int64. A splat tensor stores one value for every element (the ONNX "light model"
// ConstantOfShape convention) so that weights of benchmark models cost nothing to keep.
#pragma once

#include "ir/TensorType.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace tessera {

class Tensor {
public:
  Tensor() = default;
  static Tensor zeros(TensorType type);
  static Tensor fromFloats(Shape shape, std::vector<float> values);
  static Tensor fromInts(TensorType type, std::vector<int64_t> values);
  // Every element equals `value`; only one element is stored.
  static Tensor splat(TensorType type, double value);

  const TensorType& type() const { return type_; }
  const Shape& shape() const { return type_.shape; }
  DType dtype() const { return type_.dtype; }
  int64_t numel() const { return type_.numel(); }
  bool holdsFloats() const { return !isInteger(type_.dtype); }
  bool isSplat() const { return splat_; }

  // Element access that honours splats. Precondition: holdsFloats() / !holdsFloats().
  float floatAt(int64_t i) const { return floats_[splat_ ? 0 : i]; }
  int64_t intAt(int64_t i) const { return ints_[splat_ ? 0 : i]; }
  // Any element as double, whatever the storage.
  double valueAt(int64_t i) const { return holdsFloats() ? floatAt(i) : static_cast<double>(intAt(i)); }

  // Dense storage; a splat is expanded first. Use these in kernels.
  Tensor materialized() const;
  std::span<const float> floats() const { return floats_; }
  std::span<float> mutableFloats() { return floats_; }
  std::span<const int64_t> ints() const { return ints_; }
  std::span<int64_t> mutableInts() { return ints_; }
  // The stored elements, floats or ints, as raw bytes (a splat's one element).
  std::span<const std::byte> bytes() const { return holdsFloats() ? std::as_bytes(floats()) : std::as_bytes(ints()); }
  // floats() or ints() by element type, for kernels written once for both.
  template <class T> std::span<const T> values() const;
  template <class T> std::span<T> mutableValues();

  // All elements as int64 (for shape-like inputs); floats are truncated.
  std::vector<int64_t> toInts() const;

private:
  TensorType type_;
  bool splat_ = false;
  std::vector<float> floats_;
  std::vector<int64_t> ints_;
};

template <> inline std::span<const float> Tensor::values<float>() const { return floats_; }
template <> inline std::span<const int64_t> Tensor::values<int64_t>() const { return ints_; }
template <> inline std::span<float> Tensor::mutableValues<float>() { return floats_; }
template <> inline std::span<int64_t> Tensor::mutableValues<int64_t>() { return ints_; }

} // namespace tessera
