// The live MCTS tree: node area grows with visits, colour with mean value (blue low, green high),
// the committed path drawn bold, each edge labelled with its rule (when zoomed in enough to read).
// Selecting a node (or hovering it) shows its visits, Q, mean value, last reward, rule and e-graph
// size, and for PUCT the network's prior, also written under each node. Nodes over the budget are
// counted under their shown parent ("+N") and in the banner.
#pragma once

#include "MctsTreeLayout.h"
#include "replay/ReplayState.h"

#include <QWidget>

#include <optional>

class QGraphicsScene;
class QGraphicsView;
class QLabel;

namespace tessera::views {

class MctsTreeItem;

class MctsTreeView : public QWidget {
  Q_OBJECT
public:
  explicit MctsTreeView(QWidget* parent = nullptr);
  ~MctsTreeView() override;

  const MctsTreeLayout& layout() const { return layout_; }
  size_t shownNodes() const { return layout_.shown.size(); }
  size_t notShownMarkers() const; // "+N" marks under nodes, plus the banner when anything is hidden
  QString bannerText() const;
  QString detailsText() const;
  QString describeNode(uint32_t id) const; // the details line (rich text) of a node; empty when unknown
  bool hasPriors() const;                  // a shown node carries PUCT's prior
  std::optional<uint32_t> selectedNode() const { return selected_; }
  QGraphicsView* graphicsView() const { return view_; }

public slots:
  void showState(const tessera::ReplayState& state);
  void clear();
  void selectNode(uint32_t id);
  void setBudget(size_t nodes);
  void fitToView();

signals:
  void nodeSelected(uint32_t id);
  void pinRequested(const QString& rule);
  void vetoRequested(const QString& rule);

protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

private:
  void relayout();
  void setFitted(bool fitted);
  void fillPaneHeight();
  void updateDetails();

  const ReplayState* state_ = nullptr;
  MctsTreeLayoutOptions options_;
  MctsTreeLayout layout_;
  std::optional<uint32_t> selected_;
  bool framed_ = false;
  bool fitted_ = false; // the last framing was fitToView's, not the user's zoom
  QGraphicsScene* scene_;
  QGraphicsView* view_;
  MctsTreeItem* item_;
  QLabel* banner_;
  QLabel* details_;
};

} // namespace tessera::views
