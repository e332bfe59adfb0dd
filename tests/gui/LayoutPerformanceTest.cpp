// A DenseNet lays out and appears whole (Graphviz on the worker, items on the UI thread), and every
// zoom and pan repaints. The size target (under 2 s on a desktop) is measured, not asserted: the
// times printed here, and the screenshot report's open_seconds and frame_ms on a quiet machine.
#include "GraphScene.h"
#include "GraphView.h"
#include "TestModels.h"

#include <QElapsedTimer>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <cstdio>

using namespace tessera;
using namespace tessera::views;

namespace {

double showSeconds(GraphView& view, std::shared_ptr<const Graph> graph, bool weights) {
  view.graphScene()->setShowWeights(weights);
  QSignalSpy finished(view.graphScene(), &GraphScene::layoutFinished);
  QElapsedTimer timer;
  timer.start();
  view.graphScene()->setSnapshot(GraphSnapshot::make(graph, "analytic:h200"));
  EXPECT_TRUE(finished.wait(60000));
  return timer.nsecsElapsed() / 1e9;
}

} // namespace

TEST(LayoutPerformance, DenseNetAppearsWholeAndRepaintsAtEveryZoomAndPan) {
  GraphView view;
  view.resize(1200, 800);
  view.show();
  struct Case {
    const char* name;
    std::vector<int> blocks;
    bool weights;
  };
  for (const Case& c : {Case{"DenseNet-121, weights shown", {6, 12, 24, 16}, true}, Case{"DenseNet-264", {6, 12, 64, 48}, false}}) {
    auto graph = std::make_shared<const Graph>(tessera::testing::denseNet(c.blocks));
    double seconds = showSeconds(view, graph, c.weights);
    GraphScene* scene = view.graphScene();
    size_t expected = c.weights ? graph->size() : graph->size() - graph->weightNodes().size();
    ASSERT_EQ(scene->visibleNodeCount(), static_cast<int>(expected));

    // Zoom out to the whole model and back in, pan down the model: time each repaint.
    view.resetFrameStats();
    view.fitToView();
    view.viewport()->repaint();
    for (int step = 0; step < 10; ++step) {
      view.zoomBy(1.35);
      view.viewport()->repaint();
    }
    for (int step = 0; step < 20; ++step) {
      view.centerOn(view.viewCenter() + QPointF(0, 400));
      view.viewport()->repaint();
    }
    FrameStats frames = view.frameStats();
    std::printf("[ info ] %s: %zu ops, %d nodes, %zu edges shown in %.2f s (Graphviz %.2f s, items %.3f s); "
                "%d frames mean %.1f ms, p95 %.1f ms, max %.1f ms\n",
                c.name, graph->opCount(), scene->visibleNodeCount(), scene->edgeItems().size(), seconds,
                scene->lastLayoutSeconds(), scene->lastBuildSeconds(), frames.frames, frames.meanMs, frames.p95Ms, frames.maxMs);
    EXPECT_EQ(frames.frames, 31) << "the fit, ten zoom steps and twenty pans each paint one frame";
    EXPECT_GT(frames.meanMs, 0.0) << "the repaints were not timed";
  }
}
