// Checkpoints must restore the e-graph exactly: same classes, nodes, unions and hashcons.
#include "egraph/EGraph.h"

#include <gtest/gtest.h>

#include <random>

using namespace tessera;

namespace {
TensorType f32(Shape shape) { return {DType::Float32, std::move(shape)}; }

Node inputNode(const std::string& name) {
  Node node;
  node.kind = OpKind::Input;
  node.name = name;
  node.outputTypes = {f32({3})};
  return node;
}

// A fingerprint of everything observable: per class, its canonical id and sorted nodes.
std::string fingerprint(const EGraph& g) {
  std::string s = std::to_string(g.numNodes()) + "/" + std::to_string(g.numClasses()) + ":";
  for (EClassId id : g.classIds()) {
    s += "[" + std::to_string(id) + ":";
    for (const ENode& node : g.eclass(id).nodes) {
      s += std::to_string(static_cast<int>(node.op)) + "(";
      for (EClassId c : node.children) s += std::to_string(g.find(c)) + ",";
      s += ")";
    }
    s += "]";
  }
  return s;
}

// Random unary/binary growth plus random merges, then rebuild.
void grow(EGraph& g, std::mt19937& rng, int steps) {
  const OpKind unary[] = {OpKind::Relu, OpKind::Tanh, OpKind::Sigmoid};
  const OpKind binary[] = {OpKind::Add, OpKind::Mul};
  for (int i = 0; i < steps; ++i) {
    std::vector<EClassId> ids = g.classIds();
    EClassId a = ids[rng() % ids.size()], b = ids[rng() % ids.size()];
    switch (rng() % 3) {
    case 0: g.add(unary[rng() % 3], {}, {a}); break;
    case 1: g.add(binary[rng() % 2], {}, {a, b}); break;
    default:
      if (rng() % 2) g.merge(a, b);
      break;
    }
  }
  g.rebuild();
}
} // namespace

TEST(Checkpoint, RollbackRestoresExactState) {
  std::mt19937 rng(1);
  for (int round = 0; round < 20; ++round) {
    EGraph g;
    g.addLeaf(inputNode("x"));
    g.addLeaf(inputNode("y"));
    grow(g, rng, 30);
    std::string before = fingerprint(g);
    auto cp = g.checkpoint();
    grow(g, rng, 40);
    EXPECT_EQ(g.checkInvariants(), "");
    g.rollback(cp);
    EXPECT_EQ(fingerprint(g), before) << "round " << round;
    EXPECT_EQ(g.checkInvariants(), "");
    EXPECT_EQ(g.checkpointDepth(), 0u);
    // The e-graph stays usable after a rollback.
    grow(g, rng, 10);
    EXPECT_EQ(g.checkInvariants(), "");
  }
}

TEST(Checkpoint, NestedCheckpointsUnwindInOrder) {
  std::mt19937 rng(2);
  EGraph g;
  g.addLeaf(inputNode("x"));
  grow(g, rng, 20);
  std::string s0 = fingerprint(g);
  auto c0 = g.checkpoint();
  grow(g, rng, 20);
  std::string s1 = fingerprint(g);
  auto c1 = g.checkpoint();
  grow(g, rng, 20);
  g.rollback(c1);
  EXPECT_EQ(fingerprint(g), s1);
  auto c1b = g.checkpoint();
  grow(g, rng, 25);
  (void)c1b;
  g.rollback(c0); // drops c1b as well
  EXPECT_EQ(fingerprint(g), s0);
  EXPECT_EQ(g.checkpointDepth(), 0u);
}

TEST(Checkpoint, MatchesAFreshReplayAfterRollback) {
  // Growing from a rolled-back state gives the same e-graph as growing from a fresh copy.
  for (unsigned seed = 0; seed < 30; ++seed) {
    EGraph a, b;
    for (EGraph* g : {&a, &b}) {
      g->addLeaf(inputNode("x"));
      g->addLeaf(inputNode("y"));
      std::mt19937 rng(seed);
      grow(*g, rng, 25);
    }
    auto cp = a.checkpoint();
    std::mt19937 noise(seed + 1000);
    grow(a, noise, 50);
    a.rollback(cp);
    std::mt19937 r1(seed + 7), r2(seed + 7);
    grow(a, r1, 30);
    grow(b, r2, 30);
    EXPECT_EQ(fingerprint(a), fingerprint(b)) << "seed " << seed;
  }
}
