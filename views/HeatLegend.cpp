#include "HeatLegend.h"

#include "GraphScene.h"
#include "OpStyle.h"

#include <QLinearGradient>
#include <QPainter>

namespace tessera::views {

HeatLegend::HeatLegend(QWidget* parent, GraphScene* scene) : QWidget(parent), scene_(scene) {
  setAttribute(Qt::WA_TransparentForMouseEvents);
  resize(sizeHint());
  hide();
}

void HeatLegend::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const Theme& theme = scene_->style().theme;
  QColor frame = theme.background;
  frame.setAlpha(235);
  painter.setPen(QPen(theme.mutedText, 1));
  painter.setBrush(frame);
  painter.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);

  const double max = scene_->maxNodeMs();
  QString spec = QString::fromStdString(scene_->snapshot().costSpec);
  painter.setPen(theme.text);
  QFont font = painter.font();
  font.setPixelSize(11);
  painter.setFont(font);
  painter.drawText(QRectF(8, 4, width() - 16, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("Cost per op (%1)").arg(spec.isEmpty() ? tr("no cost model") : spec));

  QRectF ramp(8, 23, width() - 16, 12);
  QLinearGradient gradient(ramp.topLeft(), ramp.topRight());
  for (int i = 0; i <= 8; ++i) {
    double t = i / 8.0;
    // The scene colours by sqrt(ms / max); label the ramp in milliseconds.
    gradient.setColorAt(t, heatColor(t, theme.dark));
  }
  painter.setPen(Qt::NoPen);
  painter.setBrush(gradient);
  painter.drawRect(ramp);
  QRectF freeBox(8, 39, 12, 12);
  painter.setBrush(freeOpColor(theme.dark));
  painter.setPen(QPen(theme.mutedText, 0.5));
  painter.drawRect(freeBox);
  painter.setPen(theme.text);
  painter.drawText(QRectF(24, 37, 60, 16), Qt::AlignLeft | Qt::AlignVCenter, tr("free"));
  painter.drawText(QRectF(70, 37, width() - 78, 16), Qt::AlignRight | Qt::AlignVCenter,
                   tr("%1 ms (√ scale)").arg(max, 0, 'f', max < 0.01 ? 5 : 3));
}

} // namespace tessera::views
