// Running a benchmark model on the dummy input: NASRNN (the one cheap enough for a unit test)
// against a scalar re-derivation of TASO's cell. With splat weights every column of x*W1 + h*W2
// is mean(x) + mean(h), so the whole recurrence collapses to one number per step.
#include "generator/BenchmarkModels.h"

#include "interp/TestData.h"

#include <gtest/gtest.h>

#include <cmath>

namespace tessera {
namespace {

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }
double relu(double v) { return v > 0 ? v : 0; }

// TASO's nas_node on scalars: all eight combinations equal `c`.
double nasCell(double c) {
  double mid0 = relu(c) + sigmoid(c);
  double mid1 = sigmoid(c) + std::tanh(c);
  double mid2 = sigmoid(c) * std::tanh(c);
  double mid3 = sigmoid(c) * relu(c);
  double mid4 = sigmoid(mid1) + std::tanh(mid2);
  double mid5 = std::tanh(mid0) * std::tanh(mid3);
  double mid6 = std::tanh(mid4) * std::tanh(mid5);
  return std::tanh(mid6);
}

TEST(NasRnnNumerics, DummyInputMatchesTheScalarRecurrence) {
  Graph g = buildBenchmarkModel("nasrnn");
  std::vector<Tensor> outputs = runGraph(g, dummyInputs(g));
  ASSERT_EQ(outputs.size(), 1u);
  Tensor out = outputs[0].materialized();
  ASSERT_EQ(out.shape(), (Shape{1, 512}));

  const double meanX = (511.0 / 2) / 512; // mean of arange(512)/512
  double h = 0.5;                         // the initial state's splat value
  for (int step = 0; step < 5; ++step) h = nasCell(meanX + h);
  // A value well inside tanh's range: the splat weights keep the cell non-trivial.
  EXPECT_GT(h, 0.1);
  EXPECT_LT(h, 0.9);
  for (float v : out.floats()) ASSERT_NEAR(v, h, 1e-5);
}

} // namespace
} // namespace tessera
