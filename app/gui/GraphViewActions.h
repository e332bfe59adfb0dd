// The View menu's actions on the graph views (the graph tab's and the compare tab's two): find,
// fit, actual size and zoom act on the one in front; the weights, shapes, heat map and minimap
// toggles apply to all three alike, and the minimap's is kept in the settings file.
#pragma once

#include <QList>
#include <QObject>

#include <array>
#include <functional>

class QAction;
class QSettings;
class QWidget;

namespace tessera::views {
class GraphView;
}

namespace tessera::gui {

class GraphViewActions : public QObject {
  Q_OBJECT

public:
  // `viewInFront` names the view that navigation acts on, nullptr when no graph view is in front.
  // The actions' shortcuts work anywhere in `window`.
  GraphViewActions(std::array<views::GraphView*, 3> views, std::function<views::GraphView*()> viewInFront, QWidget* window);

  QAction* findAction() const { return find_; }
  QAction* fitAction() const { return fit_; }
  QList<QAction*> navigationActions() const; // fit, actual size, zoom in, zoom out
  QList<QAction*> toggleActions() const;     // weights, shapes, heat map, minimap

  void restoreSettings(const QSettings& file); // view/minimap
  void saveSettings(QSettings& file) const;

private:
  std::array<views::GraphView*, 3> views_;
  std::function<views::GraphView*()> viewInFront_;
  QAction* find_ = nullptr;
  QAction* fit_ = nullptr;
  QAction* actualSize_ = nullptr;
  QAction* zoomIn_ = nullptr;
  QAction* zoomOut_ = nullptr;
  QAction* weights_ = nullptr;
  QAction* shapes_ = nullptr;
  QAction* heat_ = nullptr;
  QAction* miniMap_ = nullptr;
};

} // namespace tessera::gui
