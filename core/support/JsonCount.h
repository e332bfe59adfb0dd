// A count in a file Tessera reads (a launch file's shard index, a checkpoint's layer sizes, a tuning
// trace's decisions): a JSON integer that fits the type. A float or an integer out of range is
// refused, not cast (casting a float beyond the range is undefined behaviour; fuzz_launch_files
// and fuzz_tuning_trace found it).
#pragma once

#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace tessera {

// Whether `value` is a JSON integer that Count holds.
template <class Count>
bool jsonIntegerFits(const nlohmann::json& value) {
  return value.is_number_unsigned()  ? std::in_range<Count>(value.get<uint64_t>())
         : value.is_number_integer() ? std::in_range<Count>(value.get<int64_t>())
                                     : false;
}

template <class Count>
Count jsonCount(const nlohmann::json& object, const char* key) {
  const nlohmann::json& value = object.at(key);
  if (!jsonIntegerFits<Count>(value)) throw Error(std::string("'") + key + "' is " + value.dump() + ", not a count from " + std::to_string(std::numeric_limits<Count>::min()) +
                         " to " + std::to_string(std::numeric_limits<Count>::max()));
  return value.get<Count>();
}

// A list of counts under `key` (an observation's op kinds and edge rows), each checked as jsonCount does.
template <class Count>
std::vector<Count> jsonCounts(const nlohmann::json& object, const char* key) {
  const nlohmann::json& list = object.at(key);
  if (!list.is_array()) throw Error(std::string("'") + key + "' is not a list");
  std::vector<Count> counts;
  counts.reserve(list.size());
  for (const nlohmann::json& value : list) {
    if (!jsonIntegerFits<Count>(value)) throw Error(std::string("'") + key + "' holds " + value.dump() + ", not a count of its type");
    counts.push_back(value.get<Count>());
  }
  return counts;
}

} // namespace tessera
