// The MCTS tree as the main job first shows it: zoomed out to the whole tree, where edge labels
// are too small to read, the committed path still names its rules beside its nodes.
#include "live/MctsTreeItem.h"
#include "live/MctsTreeLayout.h"
#include "replay/MctsTreeMirror.h"

#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QStyleOptionGraphicsItem>

#include <gtest/gtest.h>

using namespace tessera;

namespace {

// Pixels of `image` inside `box` that are far from white: drawn text (or lines).
int inkIn(const QImage& image, QRect box) {
  int ink = 0;
  box = box.intersected(image.rect());
  for (int y = box.top(); y <= box.bottom(); ++y)
    for (int x = box.left(); x <= box.right(); ++x)
      if (qGray(image.pixel(x, y)) < 128) ++ink;
  return ink;
}

} // namespace

// A root with children drawn below the zoom at which edge labels are drawn (a fitted tree of a few
// hundred nodes is drawn at about a fifth of scene size). The last child, `committed-rule`, is
// committed when `commit`. With `paneEndsAtIt` it has three siblings on its left (children are laid
// out in creation order) and the image ends just right of it, as where a fitted tree's last
// committed node sits at the pane's edge.
struct Drawn {
  QImage image;
  QRect rightOfIt; // right of the labelled child, at the font's own size
  QRect leftOfIt;  // the same, left of it
};

Drawn drawZoomedOut(bool commit, bool paneEndsAtIt = false) {
  MctsTreeMirror tree;
  uint64_t sequence = 0;
  tree.created(MctsNodeCreated{0, 0, "", 0, 10}, sequence++);
  const uint32_t siblings = paneEndsAtIt ? 3 : 1, labelled = siblings + 1;
  for (uint32_t id = 1; id <= siblings; ++id) {
    tree.created(MctsNodeCreated{id, 0, "other-rule", 1, 11}, sequence++);
    tree.backedUp(id, 2, 0.2, 0.1, sequence++);
  }
  tree.created(MctsNodeCreated{labelled, 0, "committed-rule", 1, 11}, sequence++);
  tree.backedUp(labelled, 6, 3.0, 0.5, sequence++);
  tree.backedUp(0, 6 + 2 * siblings, 3.2, 0, sequence++);
  if (commit) tree.committed(labelled, 0, sequence++);
  const views::MctsTreeLayout layout = views::layoutMctsTree(tree);

  QPalette light;
  light.setColor(QPalette::Base, Qt::white);
  light.setColor(QPalette::Text, Qt::black);
  QFont font;
  font.setPixelSize(12);
  views::MctsTreeItem item(views::Theme::fromPalette(light), font);
  item.setTree(&tree, &layout);

  const double scale = paneEndsAtIt ? 0.5 : 0.2;
  const QRectF bounds = item.boundingRect();
  QTransform toImage = QTransform::fromScale(scale, scale);
  toImage.translate(-bounds.left(), -bounds.top());
  const double r = item.radius(*tree.node(labelled));
  const QPointF right = toImage.map(layout.position.at(labelled) + QPointF(r, 0));
  const QPointF left = toImage.map(layout.position.at(labelled) - QPointF(r, 0));
  const int width = paneEndsAtIt ? static_cast<int>(right.x()) + 12 : static_cast<int>(bounds.width() * scale) + 400;
  Drawn drawn{QImage(width, static_cast<int>(bounds.height() * scale) + 40, QImage::Format_RGB32), {}, {}};
  drawn.image.fill(Qt::white);
  {
    QPainter painter(&drawn.image);
    painter.setTransform(toImage);
    QStyleOptionGraphicsItem option;
    item.paint(&painter, &option, nullptr);
  }
  drawn.rightOfIt = QRect(static_cast<int>(right.x()) + 5, static_cast<int>(right.y()) - 7, 70, 14);
  drawn.leftOfIt = QRect(static_cast<int>(left.x()) - 75, static_cast<int>(left.y()) - 7, 70, 14);
  return drawn;
}

TEST(MctsTreeItem, ZoomedOutTheCommittedPathKeepsItsRuleNames) {
  const Drawn committed = drawZoomedOut(true), explored = drawZoomedOut(false);
  const int withLabel = inkIn(committed.image, committed.rightOfIt), without = inkIn(explored.image, explored.rightOfIt);
  EXPECT_GT(withLabel, without + 30) << "a committed node's rule is written beside it, at the font's size (" << withLabel
                                     << " dark pixels against " << without << " for the same node uncommitted)";
}

// Where the pane ends right of a committed node, its label goes to the node's left instead of
// being cut off at the edge.
TEST(MctsTreeItem, AtThePanesRightEdgeTheLabelGoesLeftOfItsNode) {
  const Drawn committed = drawZoomedOut(true, true), explored = drawZoomedOut(false, true);
  const int withLabel = inkIn(committed.image, committed.leftOfIt), without = inkIn(explored.image, explored.leftOfIt);
  EXPECT_GT(withLabel, without + 30) << withLabel << " dark pixels left of the node against " << without << " uncommitted";
}
