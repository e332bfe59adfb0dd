#include "OpStyle.h"

#include <QPalette>

#include <algorithm>
#include <array>
#include <cmath>

namespace tessera::views {

namespace {

QColor mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                          static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                          static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

double luminance(const QColor& c) { return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF(); }

} // namespace

Theme Theme::fromPalette(const QPalette& palette) {
  Theme theme;
  theme.background = palette.color(QPalette::Base);
  theme.dark = luminance(theme.background) < 0.45;
  theme.text = palette.color(QPalette::Text);
  theme.mutedText = mix(theme.text, theme.background, 0.45);
  theme.edge = theme.dark ? QColor(0x8a, 0x93, 0x9c) : QColor(0x6b, 0x72, 0x7a);
  theme.selection = palette.color(QPalette::Highlight);
  theme.edgeHighlight = theme.selection;
  theme.searchMatch = QColor(0xf5, 0xc2, 0x1b);
  theme.added = theme.dark ? QColor(0x4c, 0xc3, 0x6a) : QColor(0x1f, 0x9d, 0x48);
  theme.removed = theme.dark ? QColor(0xf0, 0x60, 0x60) : QColor(0xd3, 0x2f, 0x2f);
  theme.changed = theme.dark ? QColor(0xff, 0xb3, 0x2e) : QColor(0xe0, 0x8a, 0x00);
  return theme;
}

QColor categoryColor(OpCategory category, bool dark) {
  QColor color;
  switch (category) {
  case OpCategory::Conv: color = QColor(0x35, 0x6c, 0xb0); break;          // blue
  case OpCategory::Linear: color = QColor(0x1f, 0x8a, 0x80); break;        // teal
  case OpCategory::Normalization: color = QColor(0x46, 0x8a, 0x3a); break; // green
  case OpCategory::Activation: color = QColor(0xb4, 0x4b, 0x35); break;    // brick
  case OpCategory::Elementwise: color = QColor(0x7b, 0x58, 0xa8); break;   // purple
  case OpCategory::Pool: color = QColor(0xc0, 0x7f, 0x1c); break;          // ochre
  case OpCategory::Reduce: color = QColor(0xa2, 0x45, 0x76); break;        // plum
  case OpCategory::Layout: color = QColor(0x66, 0x76, 0x85); break;        // slate
  case OpCategory::Misc: color = QColor(0x86, 0x86, 0x86); break;          // grey
  case OpCategory::Opaque: color = QColor(0x44, 0x44, 0x48); break;        // charcoal
  case OpCategory::Source: return inputColor(dark);
  }
  return dark ? color.darker(112) : color;
}

QColor inputColor(bool dark) { return dark ? QColor(0x34, 0x4a, 0x60) : QColor(0xdc, 0xe7, 0xf3); }
QColor weightColor(bool dark) { return dark ? QColor(0x45, 0x47, 0x4a) : QColor(0xee, 0xee, 0xee); }

NodeShape categoryShape(OpCategory category) {
  switch (category) {
  case OpCategory::Activation: return NodeShape::Pill;
  case OpCategory::Elementwise: return NodeShape::Ellipse;
  case OpCategory::Pool:
  case OpCategory::Reduce: return NodeShape::Hexagon;
  case OpCategory::Layout:
  case OpCategory::Opaque: return NodeShape::Box;
  case OpCategory::Source: return NodeShape::Pill;
  default: return NodeShape::RoundedBox;
  }
}

QColor heatColor(double fraction, bool dark) {
  // Sequential yellow-orange-red ramp (ColorBrewer YlOrRd): hotter is more expensive in both themes.
  static const std::array<QColor, 5> light = {QColor(0xff, 0xf2, 0xc4), QColor(0xfe, 0xcc, 0x5c), QColor(0xfd, 0x8d, 0x3c),
                                               QColor(0xe3, 0x1a, 0x1c), QColor(0x8f, 0x00, 0x1a)};
  static const std::array<QColor, 5> darkRamp = {QColor(0x5a, 0x4a, 0x2a), QColor(0x9c, 0x6a, 0x14), QColor(0xd9, 0x6a, 0x1c),
                                                  QColor(0xe8, 0x3a, 0x2a), QColor(0xff, 0x5a, 0x4a)};
  const auto& ramp = dark ? darkRamp : light;
  double t = std::clamp(fraction, 0.0, 1.0) * (ramp.size() - 1);
  size_t i = std::min(static_cast<size_t>(t), ramp.size() - 2);
  return mix(ramp[i], ramp[i + 1], t - static_cast<double>(i));
}

QColor freeOpColor(bool dark) { return dark ? QColor(0x3a, 0x3c, 0x40) : QColor(0xe4, 0xe6, 0xe8); }

QColor textColorOn(const QColor& fill) { return luminance(fill) > 0.55 ? QColor(0x1d, 0x1f, 0x22) : QColor(Qt::white); }

} // namespace tessera::views
