// Small graphs and the default rule pack for the RL tests.
#pragma once

#include "ir/Graph.h"
#include "rewrite/DefaultRules.h"
#include "rewrite/RuleSet.h"

#include "../search/taso/TasoTestGraphs.h"

#include <initializer_list>
#include <vector>

namespace tessera::test {

// Ops no rule matches.
inline Graph expChain(int length) {
  Graph g;
  NodeId value = g.addInput("t", f32({8, 8}));
  for (int i = 0; i < length; ++i) value = g.addNode(OpKind::Exp, {{value}});
  g.addOutput({value}, "y");
  return g;
}

struct RulePack {
  RuleSet set = defaultRules();
  std::vector<const Rule*> list = [this] {
    std::vector<const Rule*> rules;
    for (const auto& rule : set.rules()) rules.push_back(rule.get());
    return rules;
  }();

  std::vector<const Rule*> only(std::initializer_list<const char*> names) const {
    std::vector<const Rule*> rules;
    for (const char* name : names) rules.push_back(set.find(name));
    return rules;
  }
};

} // namespace tessera::test
