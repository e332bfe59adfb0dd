// Helpers for the interpreter tests: run one op through a real Graph (so attributes are
// canonicalised and types inferred exactly as in use), deterministic test values, comparisons.
#pragma once

#include "interp/Interpreter.h"
#include "ir/Graph.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace tessera::testing {

// The message of the tessera::Error that `action` throws, or "(no error)".
inline std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Uniform values in [low, high) from a fixed seed, independent of the interpreter's generators.
inline std::vector<float> testValues(int64_t count, uint32_t seed, float low = -1.0f, float high = 1.0f) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<float> distribution(low, high);
  std::vector<float> values(static_cast<size_t>(count));
  for (float& v : values) v = distribution(engine);
  return values;
}

inline Tensor testTensor(Shape shape, uint32_t seed, float low = -1.0f, float high = 1.0f) {
  const int64_t count = numelOf(shape);
  return Tensor::fromFloats(std::move(shape), testValues(count, seed, low, high));
}

// Builds weights for `inputs`, one node of `kind` on them, and runs the graph; returns all outputs.
inline std::vector<Tensor> runOpOutputs(OpKind kind, const std::vector<Tensor>& inputs, Attributes attrs = {}, int outputs = 1) {
  Graph graph;
  std::vector<ValueRef> refs;
  for (size_t i = 0; i < inputs.size(); ++i) refs.push_back({graph.addWeight("in" + std::to_string(i), inputs[i]), 0});
  NodeId id = graph.addNode(kind, refs, std::move(attrs), "op");
  for (int port = 0; port < outputs; ++port) graph.addOutput({id, static_cast<uint32_t>(port)}, "out" + std::to_string(port));
  return runGraph(graph, {});
}

inline Tensor runOp(OpKind kind, const std::vector<Tensor>& inputs, Attributes attrs = {}) {
  return runOpOutputs(kind, inputs, std::move(attrs)).at(0);
}

inline std::vector<float> valuesOf(const Tensor& t) {
  std::vector<float> values(static_cast<size_t>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) values[static_cast<size_t>(i)] = t.floatAt(i);
  return values;
}

// Element-wise |actual - expected| <= atol + rtol * |expected|, reporting the first few misses.
inline ::testing::AssertionResult allClose(const std::vector<float>& actual, const std::vector<float>& expected, double rtol = 1e-5,
                                           double atol = 1e-5) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure() << "sizes differ: " << actual.size() << " vs " << expected.size();
  int misses = 0;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (size_t i = 0; i < actual.size(); ++i) {
    const double a = actual[i], e = expected[i];
    if (std::isnan(a) && std::isnan(e)) continue;
    if (a == e || std::fabs(a - e) <= atol + rtol * std::fabs(e)) continue;
    if (misses++ < 5) failure << "element " << i << ": " << a << " vs expected " << e << "; ";
  }
  if (misses == 0) return ::testing::AssertionSuccess();
  return failure << misses << " of " << actual.size() << " elements differ";
}

inline ::testing::AssertionResult allClose(const Tensor& actual, const std::vector<float>& expected, double rtol = 1e-5, double atol = 1e-5) {
  return allClose(valuesOf(actual), expected, rtol, atol);
}

} // namespace tessera::testing
