// The heat map's key, shown in a graph view's corner: the colour ramp from free to the costliest
// node, with the cost model that priced it.
#pragma once

#include <QWidget>

namespace tessera::views {

class GraphScene;

class HeatLegend final : public QWidget {
public:
  HeatLegend(QWidget* parent, GraphScene* scene);
  QSize sizeHint() const override { return {250, 58}; }

protected:
  void paintEvent(QPaintEvent* event) override;

private:
  GraphScene* scene_;
};

} // namespace tessera::views
