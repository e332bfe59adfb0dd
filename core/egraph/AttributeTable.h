// Interns attribute sets so that e-nodes compare and hash them as small integers.
#pragma once

#include "ir/Attributes.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace tessera {

class AttributeTable {
public:
  AttributeTable() { intern(Attributes{}); } // id 0 is the empty set

  uint32_t intern(const Attributes& attrs) {
    size_t h = attrs.hash();
    auto [begin, end] = byHash_.equal_range(h);
    for (auto it = begin; it != end; ++it)
      if (table_[it->second] == attrs) return it->second;
    uint32_t id = static_cast<uint32_t>(table_.size());
    table_.push_back(attrs);
    byHash_.emplace(h, id);
    return id;
  }
  const Attributes& get(uint32_t id) const { return table_[id]; }
  size_t size() const { return table_.size(); }

private:
  std::vector<Attributes> table_;
  std::unordered_multimap<size_t, uint32_t> byHash_;
};

} // namespace tessera
