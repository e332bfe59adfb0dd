// NASRNN as TASO benchmarks it: 5 time steps of the NAS-discovered recurrent cell, hidden 512,
// batch 1 (TASO examples/nasrnn.py). Each step's inputs are `input_<t>`; the initial state is a
// weight, as in TASO's and TENSAT's graphs.
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

constexpr int64_t kHidden = 512;
constexpr int kSteps = 5;

// x * W1 + h * W2, each weight [512, 512].
ValueRef combine(ModelBuilder& b, const std::string& prefix, ValueRef x, ValueRef h) {
  ValueRef fromInput = b.linear(prefix + ".input", x, kHidden);
  ValueRef fromState = b.linear(prefix + ".state", h, kHidden);
  return b.add(prefix + ".add", fromInput, fromState);
}

// Eight combinations of (x, h) joined by TASO's fixed tree of activations, adds and products.
ValueRef nasCell(ModelBuilder& b, const std::string& prefix, ValueRef state, ValueRef x) {
  std::vector<ValueRef> t;
  for (int i = 0; i < 8; ++i) t.push_back(combine(b, prefix + ".combine" + std::to_string(i), x, state));
  auto at = [&](const std::string& what) { return prefix + "." + what; };
  // Every activation is its own statement: the node order must not depend on argument order.
  std::vector<ValueRef> mid;
  ValueRef a = b.relu(at("mid0.relu"), t[0]);
  ValueRef c = b.sigmoid(at("mid0.sigmoid"), t[3]);
  mid.push_back(b.add(at("mid0"), a, c));
  a = b.sigmoid(at("mid1.sigmoid"), t[1]);
  c = b.tanh(at("mid1.tanh"), t[2]);
  mid.push_back(b.add(at("mid1"), a, c));
  a = b.sigmoid(at("mid2.sigmoid"), t[4]);
  c = b.tanh(at("mid2.tanh"), t[5]);
  mid.push_back(b.mul(at("mid2"), a, c));
  a = b.sigmoid(at("mid3.sigmoid"), t[6]);
  c = b.relu(at("mid3.relu"), t[7]);
  mid.push_back(b.mul(at("mid3"), a, c));
  a = b.sigmoid(at("mid4.sigmoid"), mid[1]);
  c = b.tanh(at("mid4.tanh"), mid[2]);
  mid.push_back(b.add(at("mid4"), a, c));
  a = b.tanh(at("mid5.tanh0"), mid[0]);
  c = b.tanh(at("mid5.tanh1"), mid[3]);
  mid.push_back(b.mul(at("mid5"), a, c));
  a = b.tanh(at("mid6.tanh0"), mid[4]);
  c = b.tanh(at("mid6.tanh1"), mid[5]);
  mid.push_back(b.mul(at("mid6"), a, c));
  return b.tanh(at("state"), mid[6]);
}

} // namespace

Graph buildNasRnn() {
  ModelBuilder b("nasrnn");
  std::vector<ValueRef> xs;
  for (int step = 0; step < kSteps; ++step) xs.push_back(b.input("input_" + std::to_string(step), {1, kHidden}));
  // A non-zero state so that the h * W2 products carry signal from the first step on.
  ValueRef state = b.weight("initial_state", {1, kHidden}, 0.5);
  for (int step = 0; step < kSteps; ++step) state = nasCell(b, "step" + std::to_string(step), state, xs[step]);
  b.output(state, "output");
  return b.finish();
}

} // namespace tessera::samples
