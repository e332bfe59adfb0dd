// EXPECT_EQUIV(rules, lhs, rhs): the rules prove lhs = rhs. Both sides (TENSAT's s-expression syntax,
// variables as ?x) are instantiated on shapes for which both type-check, as the rule checker does;
// an e-graph of both sides is saturated with the rules, which must then put them in one e-class.
// Tests read like the algebra, as egg's do.
#pragma once

#include "rewrite/RuleSet.h"

#include <gtest/gtest.h>

#include <string_view>

namespace tessera::testing {

::testing::AssertionResult provesEquivalent(const RuleSet& rules, std::string_view lhs, std::string_view rhs);

} // namespace tessera::testing

#define EXPECT_EQUIV(rules, lhs, rhs) EXPECT_TRUE(::tessera::testing::provesEquivalent((rules), (lhs), (rhs)))
#define EXPECT_NOT_EQUIV(rules, lhs, rhs) EXPECT_FALSE(::tessera::testing::provesEquivalent((rules), (lhs), (rhs)))
