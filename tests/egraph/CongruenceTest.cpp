// The e-graph against a naive oracle: random terms, random merges, rebuilds, checkpoints and
// rollbacks, and after each rebuild two terms share an e-class exactly when the oracle's union-find
// closed under congruence (same op, equivalent children) says they are equal.
#include "egraph/EGraph.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>

using namespace tessera;

namespace {

TensorType f32() { return {DType::Float32, {3}}; }

struct Term {
  OpKind op = OpKind::Input;
  std::vector<size_t> children; // term indices
};

// Terms as trees; equality is the closure of the asserted merges under congruence, computed the
// slow, obvious way.
class Oracle {
public:
  size_t add(Term term) {
    terms_.push_back(std::move(term));
    parent_.push_back(parent_.size());
    return terms_.size() - 1;
  }
  void merge(size_t a, size_t b) { parent_[find(a)] = find(b); }
  size_t find(size_t i) const {
    while (parent_[i] != i) i = parent_[i];
    return i;
  }
  void close() {
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < terms_.size(); ++i)
        for (size_t j = i + 1; j < terms_.size(); ++j)
          if (find(i) != find(j) && congruent(i, j)) {
            merge(i, j);
            changed = true;
          }
    }
  }
  size_t size() const { return terms_.size(); }
  const Term& term(size_t i) const { return terms_[i]; }

private:
  bool congruent(size_t i, size_t j) const {
    const Term &a = terms_[i], &b = terms_[j];
    if (a.op != b.op || a.op == OpKind::Input || a.children.size() != b.children.size()) return false;
    for (size_t k = 0; k < a.children.size(); ++k)
      if (find(a.children[k]) != find(b.children[k])) return false;
    return true;
  }
  std::vector<Term> terms_;
  std::vector<size_t> parent_;
};

struct Both {
  EGraph egraph;
  Oracle oracle;
  std::vector<EClassId> classOf; // by term

  void addInput(int n) {
    Node leaf;
    leaf.kind = OpKind::Input;
    leaf.name = "x" + std::to_string(n);
    leaf.outputTypes = {f32()};
    classOf.push_back(egraph.addLeaf(leaf));
    oracle.add({});
  }
  void addOp(OpKind op, std::vector<size_t> children) {
    std::vector<EClassId> classes;
    for (size_t child : children) classes.push_back(classOf[child]);
    classOf.push_back(*egraph.add(op, {}, classes));
    oracle.add({op, std::move(children)});
  }
  void merge(size_t a, size_t b) {
    egraph.merge(classOf[a], classOf[b]);
    oracle.merge(a, b);
  }
  // Both agree on every pair of terms.
  ::testing::AssertionResult agree() {
    egraph.rebuild();
    oracle.close();
    if (std::string broken = egraph.checkInvariants(); !broken.empty()) return ::testing::AssertionFailure() << broken;
    for (size_t i = 0; i < oracle.size(); ++i)
      for (size_t j = i + 1; j < oracle.size(); ++j) {
        const bool sameClass = egraph.find(classOf[i]) == egraph.find(classOf[j]);
        const bool equal = oracle.find(i) == oracle.find(j);
        if (sameClass != equal)
          return ::testing::AssertionFailure() << "terms " << i << " and " << j << (equal ? " are equal" : " differ")
                                               << " but the e-graph puts them in " << (sameClass ? "one class" : "two classes");
      }
    return ::testing::AssertionSuccess();
  }
};

void randomStep(Both& both, std::mt19937& rng) {
  const size_t n = both.oracle.size();
  const size_t a = rng() % n, b = rng() % n;
  switch (rng() % 4) {
  case 0: both.addOp(rng() % 2 ? OpKind::Relu : OpKind::Tanh, {a}); break;
  case 1: both.addOp(rng() % 2 ? OpKind::Add : OpKind::Mul, {a, b}); break;
  case 2: both.merge(a, b); break;
  default: // rebuild mid-way too, so merges meet a clean and a dirty e-graph
    both.egraph.rebuild();
    break;
  }
}

} // namespace

TEST(Congruence, RandomMergesAgreeWithANaiveCongruenceClosure) {
  for (uint32_t seed = 1; seed <= 100; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    Both both;
    for (int i = 0; i < 4; ++i) both.addInput(i);
    for (int step = 0; step < 40; ++step) randomStep(both, rng);
    ASSERT_TRUE(both.agree());
  }
}

TEST(Congruence, RollbackReturnsToTheOraclesStateAtTheCheckpoint) {
  for (uint32_t seed = 1; seed <= 100; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    Both both;
    for (int i = 0; i < 4; ++i) both.addInput(i);
    for (int step = 0; step < 20; ++step) randomStep(both, rng);
    ASSERT_TRUE(both.agree()); // rebuilt: a checkpoint needs a clean e-graph
    const Oracle atCheckpoint = both.oracle;
    const size_t terms = both.classOf.size();
    const EGraph::Checkpoint checkpoint = both.egraph.checkpoint();
    for (int step = 0; step < 30; ++step) randomStep(both, rng);
    ASSERT_TRUE(both.agree());
    both.egraph.rollback(checkpoint);
    both.oracle = atCheckpoint;
    both.classOf.resize(terms);
    ASSERT_TRUE(both.agree()) << "after rollback";
    // And the rolled-back e-graph goes on like any other.
    for (int step = 0; step < 20; ++step) randomStep(both, rng);
    ASSERT_TRUE(both.agree()) << "growing again after rollback";
  }
}
