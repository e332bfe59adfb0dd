// A tensor's static type: element type and fully known shape.
#pragma once

#include "ir/DType.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

using Shape = std::vector<int64_t>;

struct TensorType {
  DType dtype = DType::Float32;
  Shape shape;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const;
  std::string toString() const; // "f32[1,3,224,224]"

  friend bool operator==(const TensorType&, const TensorType&) = default;
};

std::string shapeToString(const Shape& shape); // "[1,3,224,224]"
int64_t numelOf(const Shape& shape);

} // namespace tessera
