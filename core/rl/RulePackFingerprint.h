// A fingerprint of a rule pack (names and rules, in order), so that an agent trained on one pack,
// whose rule embeddings are indexed by position in it, refuses to run on another.
#pragma once

#include "rewrite/Rule.h"

#include <span>
#include <string>

namespace tessera {

// 16 hex digits (FNV-1a over each rule's name and description): the same on every platform.
std::string rulePackFingerprint(std::span<const Rule* const> rules);

} // namespace tessera
