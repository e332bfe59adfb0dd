#include "GraphViewActions.h"

#include "GraphScene.h"
#include "GraphView.h"

#include <QAction>
#include <QSettings>
#include <QWidget>

#include <utility>

namespace tessera::gui {

GraphViewActions::GraphViewActions(std::array<views::GraphView*, 3> views, std::function<views::GraphView*()> viewInFront, QWidget* window)
    : QObject(window), views_(views), viewInFront_(std::move(viewInFront)) {
  auto action = [this, window](const QString& text, const QKeySequence& key, auto slot) {
    auto* a = new QAction(text, this);
    a->setShortcut(key);
    connect(a, &QAction::triggered, this, slot);
    window->addAction(a);
    return a;
  };
  auto inFront = [this](auto act) {
    return [this, act] {
      if (views::GraphView* view = viewInFront_()) act(view);
    };
  };
  find_ = action(tr("&Find Node…"), QKeySequence::Find, inFront([](views::GraphView* view) { view->showSearch(); }));
  fit_ = action(tr("&Fit to Window"), QKeySequence(Qt::CTRL | Qt::Key_0), inFront([](views::GraphView* view) { view->fitToView(); }));
  actualSize_ = action(tr("&Actual Size"), QKeySequence(Qt::CTRL | Qt::Key_1), inFront([](views::GraphView* view) { view->actualSize(); }));
  zoomIn_ = action(tr("Zoom &In"), QKeySequence::ZoomIn, inFront([](views::GraphView* view) { view->zoomBy(1.25); }));
  zoomOut_ = action(tr("Zoom &Out"), QKeySequence::ZoomOut, inFront([](views::GraphView* view) { view->zoomBy(0.8); }));

  auto toAll = [this](auto set) {
    return [this, set](bool on) {
      for (views::GraphView* view : views_) set(view, on);
    };
  };
  weights_ = action(tr("Show &Weights"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_W),
                    toAll([](views::GraphView* view, bool on) { view->graphScene()->setShowWeights(on); }));
  shapes_ = action(tr("Show Tensor &Shapes"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                   toAll([](views::GraphView* view, bool on) { view->graphScene()->setShowShapes(on); }));
  heat_ = action(tr("&Heat Map by Cost"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H),
                 toAll([](views::GraphView* view, bool on) { view->graphScene()->setHeatMap(on); }));
  miniMap_ = action(tr("&Minimap"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
                    toAll([](views::GraphView* view, bool on) { view->setMiniMapVisible(on); }));
  for (QAction* toggle : toggleActions()) toggle->setCheckable(true);
  miniMap_->setChecked(true);

  // Short labels on the toolbar (a text-only tool button shows the icon text); menus keep the full ones.
  find_->setIconText(tr("Find"));
  fit_->setIconText(tr("Fit"));
  weights_->setIconText(tr("Weights"));
  shapes_->setIconText(tr("Shapes"));
  heat_->setIconText(tr("Heat map"));
}

QList<QAction*> GraphViewActions::navigationActions() const { return {fit_, actualSize_, zoomIn_, zoomOut_}; }
QList<QAction*> GraphViewActions::toggleActions() const { return {weights_, shapes_, heat_, miniMap_}; }

void GraphViewActions::restoreSettings(const QSettings& file) {
  miniMap_->setChecked(file.value(QStringLiteral("view/minimap"), true).toBool());
  for (views::GraphView* view : views_) view->setMiniMapVisible(miniMap_->isChecked());
}

void GraphViewActions::saveSettings(QSettings& file) const { file.setValue(QStringLiteral("view/minimap"), miniMap_->isChecked()); }

} // namespace tessera::gui
