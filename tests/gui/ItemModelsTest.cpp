// The item models behind the properties panel and the compare summary, checked by
// QAbstractItemModelTester and against hand-computed figures.
#include "NodePropertiesModel.h"
#include "OpCountDiffModel.h"
#include "TestModels.h"

#include "cost/CostModel.h"
#include "cost/GraphCost.h"

#include <QAbstractItemModelTester>
#include <QLoggingCategory>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::views;

namespace {

// QAbstractItemModelTester reports violations as warnings in Warning mode; collect them.
QStringList* modelTestFailures = nullptr;
void collectFailures(QtMsgType type, const QMessageLogContext& context, const QString& message) {
  if (modelTestFailures && type >= QtWarningMsg && context.category && QByteArray(context.category).startsWith("qt.modeltest"))
    modelTestFailures->append(message);
}

struct ModelTesterGuard {
  QStringList failures;
  QtMessageHandler previous;
  ModelTesterGuard() {
    modelTestFailures = &failures;
    previous = qInstallMessageHandler(collectFailures);
  }
  ~ModelTesterGuard() {
    qInstallMessageHandler(previous);
    modelTestFailures = nullptr;
  }
};

NodeId idOf(const Graph& graph, const char* name) { return graph.findNode(name).value(); }

} // namespace

TEST(NodePropertiesModel, PassesTheModelTesterAndShowsTheNode) {
  ModelTesterGuard guard;
  auto graph = std::make_shared<const Graph>(tessera::testing::branchesGraph());
  GraphSnapshot snapshot = GraphSnapshot::make(graph, "analytic:h200", "branches");
  NodePropertiesModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);

  NodeId conv = idOf(*graph, "conv_b");
  model.show(snapshot, conv);
  EXPECT_EQ(model.groups(), (QStringList{"Node", "Attributes", "Inputs", "Outputs", "Cost"}));
  EXPECT_EQ(model.value("Node", "Name"), "conv_b");
  EXPECT_EQ(model.value("Node", "Op"), "Conv");
  EXPECT_EQ(model.value("Attributes", "pads"), "[1,1,1,1]");
  EXPECT_EQ(model.rowCount(model.index(2, 0)), 2) << "conv_b has two inputs";
  EXPECT_TRUE(model.value("Inputs", "1  w2").startsWith("f32[8,8,3,3]"));
  // FLOPs of a 3x3 conv, 8 -> 8 channels on 14x14: 2 * (8*14*14) * (8*3*3) = 225792.
  EXPECT_EQ(model.value("Cost", "FLOPs"), "226 k");
  auto cost = makeCostModel("analytic:h200");
  GraphCost priced = graphCost(*graph, *cost);
  EXPECT_EQ(model.value("Cost", "Time"), formatMs(priced.nodeMs[conv]) + " (analytic:h200)");
  EXPECT_EQ(model.value("Cost", "Share of graph"), QString::number(priced.nodeMs[conv] / priced.totalMs * 100, 'f', 2) + " %");

  // Tree shape: groups at the top, properties below, nothing deeper.
  QModelIndex cost0 = model.index(4, 0);
  EXPECT_EQ(model.data(cost0).toString(), "Cost");
  QModelIndex child = model.index(0, 1, cost0);
  EXPECT_EQ(model.parent(child), cost0);
  EXPECT_EQ(model.rowCount(child), 0);

  model.show(snapshot, std::nullopt);
  EXPECT_EQ(model.value("Model", "Ops"), "5");
  EXPECT_EQ(model.value("Model", "Weights"), "2");
  EXPECT_EQ(model.value("Model", "Parameters"), "640"); // 8*8*1*1 + 8*8*3*3
  EXPECT_EQ(model.value("Ops by kind", "Relu"), "2");
  model.show(snapshot, idOf(*graph, "w2"));
  EXPECT_EQ(model.value("Node", "Value"), "every element 0.1");
  EXPECT_FALSE(model.groups().contains("Cost")) << "weights are not executed";
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(guard.failures.isEmpty()) << guard.failures.join('\n').toStdString();
}

TEST(OpCountDiffModel, PassesTheModelTesterAndSumsByKind) {
  ModelTesterGuard guard;
  auto before = std::make_shared<const Graph>(tessera::testing::denseNet({2, 2}));
  auto after = std::make_shared<const Graph>(tessera::testing::denseNet({2}));
  GraphSnapshot a = GraphSnapshot::make(before, "analytic:h200");
  GraphSnapshot b = GraphSnapshot::make(after, "analytic:h200");
  OpCountDiffModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Warning);
  model.setGraphs(a, b);
  std::map<QString, OpCountDiffModel::Row> rows;
  double msBefore = 0;
  int opsBefore = 0;
  for (const auto& row : model.rows()) {
    rows[row.op] = row;
    msBefore += row.msBefore;
    opsBefore += row.before;
  }
  // DenseNet {2,2}: conv0 + 2 blocks x 2 layers x 2 convs + 1 transition conv = 10 convs; {2}: 5.
  EXPECT_EQ(rows["Conv"].before, 10);
  EXPECT_EQ(rows["Conv"].after, 5);
  EXPECT_EQ(rows["AveragePool"].before, 1);
  EXPECT_EQ(rows["AveragePool"].after, 0);
  EXPECT_EQ(opsBefore, static_cast<int>(before->opCount()));
  EXPECT_NEAR(msBefore, a.totalMs, 1e-12);
  // Sorted by time spent, costliest first.
  for (size_t i = 1; i < model.rows().size(); ++i)
    EXPECT_GE(std::max(model.rows()[i - 1].msBefore, model.rows()[i - 1].msAfter),
              std::max(model.rows()[i].msBefore, model.rows()[i].msAfter));
  QModelIndex delta = model.index(0, OpCountDiffModel::CountDelta);
  EXPECT_EQ(model.data(delta, Qt::UserRole).toInt(), model.rows()[0].after - model.rows()[0].before);
  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_TRUE(guard.failures.isEmpty()) << guard.failures.join('\n').toStdString();
}

TEST(HumanCount, ReadsLikeAPerson) {
  EXPECT_EQ(humanCount(17), "17");
  EXPECT_EQ(humanCount(1234), "1.23 k");
  EXPECT_EQ(humanCount(45'600'000), "45.6 M");
  EXPECT_EQ(humanCount(225'792), "226 k");
  EXPECT_EQ(formatMs(0.25), "0.2500 ms");
  EXPECT_EQ(formatMs(0.0025), "2.500 µs");
}
