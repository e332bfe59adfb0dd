// Algebra the default pack proves, written as the algebra (EXPECT_EQUIV), and claims it must not.
#include "ExpectEquiv.h"

#include "rewrite/DefaultRules.h"

#include <gtest/gtest.h>

using namespace tessera;

namespace {
const RuleSet& pack() {
  static const RuleSet rules = defaultRules();
  return rules;
}
} // namespace

TEST(Equivalence, ConvFollowedByReluIsTheFusedConv) {
  EXPECT_EQUIV(pack(), "(relu (conv2d 1 1 0 0 ?x ?w))", "(conv2d 1 1 0 2 ?x ?w)");
}

TEST(Equivalence, MatMulIsAssociative) {
  EXPECT_EQUIV(pack(), "(matmul 0 ?a (matmul 0 ?b ?c))", "(matmul 0 (matmul 0 ?a ?b) ?c)");
}

TEST(Equivalence, SumsOfThreeRegroup) {
  EXPECT_EQUIV(pack(), "(ewadd ?a (ewadd ?b ?c))", "(ewadd ?c (ewadd ?b ?a))");
  EXPECT_EQUIV(pack(), "(ewadd ?a (ewadd ?b ?c))", "(ewadd ?b (ewadd ?c ?a))");
}

TEST(Equivalence, MultiplicationDistributesOverAddition) {
  EXPECT_EQUIV(pack(), "(ewmul ?a (ewadd ?b ?c))", "(ewadd (ewmul ?a ?b) (ewmul ?a ?c))");
}

TEST(Equivalence, WhatDoesNotHoldIsNotProved) {
  EXPECT_NOT_EQUIV(pack(), "(relu ?x)", "(tanh ?x)");
  EXPECT_NOT_EQUIV(pack(), "(matmul 0 ?a ?b)", "(matmul 0 ?b ?a)");
  EXPECT_NOT_EQUIV(pack(), "(ewadd ?a ?b)", "(ewmul ?a ?b)");
}
