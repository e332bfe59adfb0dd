#include "ir/Attributes.h"

#include "support/Error.h"
#include "support/Hash.h"

#include <algorithm>

namespace tessera {

Attributes::Attributes(std::initializer_list<std::pair<std::string, AttrValue>> entries) {
  for (const auto& [name, value] : entries) set(name, value);
}

void Attributes::set(std::string name, AttrValue value) {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const auto& entry, const std::string& key) { return entry.first < key; });
  if (it != entries_.end() && it->first == name) {
    it->second = std::move(value);
    return;
  }
  entries_.insert(it, {std::move(name), std::move(value)});
}

void Attributes::erase(std::string_view name) {
  std::erase_if(entries_, [&](const auto& entry) { return entry.first == name; });
}

const AttrValue* Attributes::find(std::string_view name) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [](const auto& entry, std::string_view key) { return entry.first < key; });
  if (it == entries_.end() || it->first != name) return nullptr;
  return &it->second;
}

namespace {
template <typename T>
T getAs(const Attributes& attrs, std::string_view name, T fallback) {
  const AttrValue* value = attrs.find(name);
  if (!value) return fallback;
  if (const T* typed = std::get_if<T>(value)) return *typed;
  // ONNX writers are loose about int/float for scalar attributes; accept the obvious conversions.
  if constexpr (std::is_same_v<T, float>)
    if (const int64_t* i = std::get_if<int64_t>(value)) return static_cast<float>(*i);
  if constexpr (std::is_same_v<T, int64_t>)
    if (const float* f = std::get_if<float>(value)) return static_cast<int64_t>(*f);
  throw Error("attribute '" + std::string(name) + "' has an unexpected type");
}
} // namespace

int64_t Attributes::getInt(std::string_view name, int64_t fallback) const { return getAs(*this, name, fallback); }
float Attributes::getFloat(std::string_view name, float fallback) const { return getAs(*this, name, fallback); }
std::string Attributes::getString(std::string_view name, std::string fallback) const {
  return getAs(*this, name, std::move(fallback));
}
std::vector<int64_t> Attributes::getInts(std::string_view name, std::vector<int64_t> fallback) const {
  return getAs(*this, name, std::move(fallback));
}
std::vector<float> Attributes::getFloats(std::string_view name, std::vector<float> fallback) const {
  return getAs(*this, name, std::move(fallback));
}

size_t Attributes::hash() const {
  size_t h = 0x9e3779b97f4a7c15ULL;
  for (const auto& [name, value] : entries_) {
    hashCombine(h, std::hash<std::string>{}(name));
    hashCombine(h, value.index());
    std::visit(
        [&](const auto& v) {
          using V = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<V, std::vector<int64_t>> || std::is_same_v<V, std::vector<float>>) {
            for (auto x : v) hashCombine(h, std::hash<typename V::value_type>{}(x));
          } else {
            hashCombine(h, std::hash<V>{}(v));
          }
        },
        value);
  }
  return h;
}

std::string attrValueToString(const AttrValue& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using V = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<V, std::string>) {
          return "\"" + v + "\"";
        } else if constexpr (std::is_same_v<V, int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<V, float>) {
          std::string s = std::to_string(v);
          return s;
        } else {
          std::string s = "[";
          for (size_t i = 0; i < v.size(); ++i) {
            if (i) s += ',';
            if constexpr (std::is_same_v<V, std::vector<int64_t>>)
              s += std::to_string(v[i]);
            else
              s += std::to_string(v[i]);
          }
          return s + "]";
        }
      },
      value);
}

std::string Attributes::toString() const {
  std::string s;
  for (const auto& [name, value] : entries_) {
    if (!s.empty()) s += ", ";
    s += name + "=" + attrValueToString(value);
  }
  return s;
}

} // namespace tessera
