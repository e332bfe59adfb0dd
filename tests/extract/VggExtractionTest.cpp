// All four extractors on the real TENSAT VGG e-graph: valid results, ILP <= dag <= tree, and the
// ILP equal to the exhaustive optimum (16 classes have two nodes: 65,536 choices to enumerate).
#include "ProblemBuilder.h"

#include "extract/EGraphJson.h"
#include "extract/Extractors.h"

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::extract;

namespace {

const std::string kVgg = std::string(TESSERA_SHARED_DIR) + "/reference/extraction-gym/vgg_acyclic.json";

} // namespace

TEST(VggExtraction, IlpIsOptimalAndNoWorseThanDagNoWorseThanTree) {
  ExtractionProblem problem = readEGraphJson(kVgg);
  Extraction tree = extract::extract(problem, ExtractionMethod::Tree);
  Extraction ocf = extract::extract(problem, ExtractionMethod::SharedCost);
  Extraction dag = extract::extract(problem, ExtractionMethod::DagGreedy);
  Extraction ilp = extract::extract(problem, ExtractionMethod::Ilp);
  for (const Extraction* result : {&tree, &ocf, &dag, &ilp}) {
    EXPECT_EQ(choiceDefect(problem, result->choice), "") << result->method;
    EXPECT_DOUBLE_EQ(result->dagCost, dagCost(problem, result->choice)) << result->method;
    EXPECT_GT(result->dagCost, 0) << result->method;
  }
  EXPECT_LE(ilp.dagCost, dag.dagCost + 1e-12);
  EXPECT_LE(dag.dagCost, tree.dagCost + 1e-12);
  EXPECT_LE(ilp.dagCost, ocf.dagCost + 1e-12);
  EXPECT_TRUE(ilp.provenOptimal);

  test::BruteForceResult truth = test::bruteForceOptimum(problem);
  EXPECT_NEAR(ilp.dagCost, truth.cost, 1e-12);
}
