// Op attributes: a small, ordered name -> value map. Names follow ONNX (kernel_shape, strides,
// pads, group, axis, perm, ...), plus Tessera's fused `activation` (NONE=0 SIGMOID=1 RELU=2 TANH=3).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace tessera {

using AttrValue = std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>>;

enum class Activation : int64_t { None = 0, Sigmoid = 1, Relu = 2, Tanh = 3 };

class Attributes {
public:
  Attributes() = default;
  Attributes(std::initializer_list<std::pair<std::string, AttrValue>> entries);

  void set(std::string name, AttrValue value);
  bool has(std::string_view name) const { return find(name) != nullptr; }
  void erase(std::string_view name);

  // Typed reads with a default when absent. A present value of another type throws tessera::Error.
  int64_t getInt(std::string_view name, int64_t fallback) const;
  float getFloat(std::string_view name, float fallback) const;
  std::string getString(std::string_view name, std::string fallback) const;
  std::vector<int64_t> getInts(std::string_view name, std::vector<int64_t> fallback = {}) const;
  std::vector<float> getFloats(std::string_view name, std::vector<float> fallback = {}) const;
  const AttrValue* find(std::string_view name) const;

  const std::vector<std::pair<std::string, AttrValue>>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  size_t hash() const;
  std::string toString() const; // "axis=1, perm=[0,2,1,3]"

  friend bool operator==(const Attributes&, const Attributes&) = default;

private:
  std::vector<std::pair<std::string, AttrValue>> entries_; // sorted by name
};

std::string attrValueToString(const AttrValue& value);

} // namespace tessera
