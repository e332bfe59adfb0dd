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

// A root with two children drawn at a fifth of scene size, as a fitted tree of a few hundred
// nodes is: below the zoom at which edge labels are drawn. Child 1 is committed when `commit`.
struct Drawn {
  QImage image;
  QRect besideChild1; // right of child 1, at the font's own size
};

Drawn drawZoomedOut(bool commit) {
  MctsTreeMirror tree;
  uint64_t sequence = 0;
  tree.created(MctsNodeCreated{0, 0, "", 0, 10}, sequence++);
  tree.created(MctsNodeCreated{1, 0, "committed-rule", 1, 11}, sequence++);
  tree.created(MctsNodeCreated{2, 0, "other-rule", 1, 11}, sequence++);
  tree.backedUp(1, 6, 3.0, 0.5, sequence++);
  tree.backedUp(2, 2, 0.2, 0.1, sequence++);
  tree.backedUp(0, 8, 3.2, 0, sequence++);
  if (commit) tree.committed(1, 0, sequence++);
  const views::MctsTreeLayout layout = views::layoutMctsTree(tree);

  QPalette light;
  light.setColor(QPalette::Base, Qt::white);
  light.setColor(QPalette::Text, Qt::black);
  QFont font;
  font.setPixelSize(12);
  views::MctsTreeItem item(views::Theme::fromPalette(light), font);
  item.setTree(&tree, &layout);

  constexpr double kScale = 0.2;
  const QRectF bounds = item.boundingRect();
  Drawn drawn{QImage(static_cast<int>(bounds.width() * kScale) + 400, static_cast<int>(bounds.height() * kScale) + 40,
                     QImage::Format_RGB32),
              {}};
  drawn.image.fill(Qt::white);
  QTransform toImage = QTransform::fromScale(kScale, kScale);
  toImage.translate(-bounds.left(), -bounds.top());
  {
    QPainter painter(&drawn.image);
    painter.setTransform(toImage);
    QStyleOptionGraphicsItem option;
    item.paint(&painter, &option, nullptr);
  }
  const QPointF p = toImage.map(layout.position.at(1) + QPointF(item.radius(*tree.node(1)), 0));
  drawn.besideChild1 = QRect(static_cast<int>(p.x()) + 5, static_cast<int>(p.y()) - 7, 70, 14);
  return drawn;
}

TEST(MctsTreeItem, ZoomedOutTheCommittedPathKeepsItsRuleNames) {
  const Drawn committed = drawZoomedOut(true), explored = drawZoomedOut(false);
  const int withLabel = inkIn(committed.image, committed.besideChild1), without = inkIn(explored.image, explored.besideChild1);
  EXPECT_GT(withLabel, without + 30) << "a committed node's rule is written beside it, at the font's size (" << withLabel
                                     << " dark pixels against " << without << " for the same node uncommitted)";
}
