// The explorer's MCTS tree with PUCT's priors: each guided node shows the network's prior beside its
// visits and value, the details say where the search overruled the network, and a plain MCTS tree
// shows none of it.
#include "live/MctsTreeItem.h"
#include "live/MctsTreeView.h"
#include "OpStyle.h"

#include <QGraphicsView>
#include <QImage>

#include <cstdlib>

#include <gtest/gtest.h>

using namespace tessera;
using namespace tessera::views;

namespace {

// A root with three children: the network's favourite (60 %), the search's (30 %, most visited)
// and one it barely tried. `withPriors` false gives the same tree as plain MCTS logs it.
ReplayState threeChildren(bool withPriors) {
  ReplayState state;
  uint64_t sequence = 0;
  auto apply = [&](EventPayload payload) { state.apply(Event{sequence++, 0.0, std::move(payload)}); };
  apply(MctsNodeCreated{0, 0, "", 0, 10});
  const struct {
    const char* rule;
    double prior;
    uint32_t visits;
  } children[] = {{"fuse-conv-relu", 0.6, 4}, {"merge-matmuls-sharing-input", 0.3, 11}, {"tensat-s024", 0.1, 1}};
  uint32_t id = 1;
  for (const auto& child : children) {
    MctsNodeCreated created{id, 0, child.rule, 1, 12};
    if (withPriors) created.prior = child.prior;
    apply(created);
    apply(MctsBackedUp{id, child.visits, 0.5 * child.visits, 0.5});
    ++id;
  }
  apply(MctsBackedUp{0, 16, 8, 0.5});
  return state;
}

// The tree as the pane shows it, at the framing it opens with.
QImage grabPane(MctsTreeView& view) {
  view.show();
  view.fitToView();
  return view.graphicsView()->viewport()->grab().toImage();
}

size_t pixelsNear(const QImage& image, const QColor& colour) {
  size_t count = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QColor c = image.pixelColor(x, y);
      count += std::abs(c.red() - colour.red()) + std::abs(c.green() - colour.green()) + std::abs(c.blue() - colour.blue()) < 40;
    }
  return count;
}

} // namespace

TEST(PuctTreeView, EachGuidedNodeShowsItsPriorAndWhereTheSearchOverruledIt) {
  const ReplayState state = threeChildren(true);
  MctsTreeView view;
  view.resize(900, 600);
  view.showState(state);
  EXPECT_TRUE(view.hasPriors());
  EXPECT_TRUE(view.bannerText().contains(QStringLiteral("P = the network's prior"))) << view.bannerText().toStdString();

  const QString favourite = view.describeNode(1), searched = view.describeNode(2), root = view.describeNode(0);
  EXPECT_TRUE(favourite.contains(QStringLiteral("prior 60% (1 of 3 siblings by prior, 2 by visits)"))) << favourite.toStdString();
  EXPECT_FALSE(favourite.contains(QStringLiteral("overruled")));
  EXPECT_TRUE(searched.contains(QStringLiteral("prior 30% (2 of 3 siblings by prior, 1 by visits)"))) << searched.toStdString();
  EXPECT_TRUE(searched.contains(QStringLiteral("the search overruled the network here")));
  EXPECT_FALSE(root.contains(QStringLiteral("prior"))) << "the root has no prior";
  view.selectNode(2);
  EXPECT_EQ(view.detailsText(), searched);
  EXPECT_EQ(MctsTreeItem::priorPercent(0.05), QStringLiteral("5.0%")) << "small priors keep a digit";
}

TEST(PuctTreeView, APlainMctsTreeShowsNoPriorsAndTheLabelsAreDrawn) {
  MctsTreeView guided, plain;
  for (MctsTreeView* view : {&guided, &plain}) view->resize(900, 600);
  const ReplayState withPriors = threeChildren(true), without = threeChildren(false);
  guided.showState(withPriors);
  plain.showState(without);
  EXPECT_FALSE(plain.hasPriors());
  EXPECT_FALSE(plain.bannerText().contains(QStringLiteral("prior")));
  EXPECT_FALSE(plain.describeNode(2).contains(QStringLiteral("prior")));
  // At the framing the pane opens with, the search's favourite's label is drawn in the overruled
  // colour, which nothing else in the tree uses.
  const QColor overruled = Theme::fromPalette(guided.palette()).changed;
  EXPECT_GT(pixelsNear(grabPane(guided), overruled), 5u) << "the prior labels are painted";
  EXPECT_EQ(pixelsNear(grabPane(plain), overruled), 0u);
}
