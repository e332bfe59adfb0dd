// Tessera's default rule pack (resources/rules/default.rules), compiled into the library so every
// program has it without locating files.
#pragma once

#include "rewrite/RuleSet.h"

#include <string_view>

namespace tessera {

std::string_view defaultRulesText();
// Parses the embedded pack; its name in messages is "default.rules".
RuleSet defaultRules();

} // namespace tessera
