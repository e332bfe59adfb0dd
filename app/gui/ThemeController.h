// View ▸ Theme: follow the system, light (Fusion's palette) or dark; the choice is one action
// group for the menu and one setting. The light palette is taken once from one Fusion style the
// controller owns (a style created per change was never freed).
#pragma once

#include <QObject>
#include <QPalette>
#include <QString>

#include <memory>

class QActionGroup;
class QStyle;

namespace tessera::gui {

class ThemeController : public QObject {
  Q_OBJECT
public:
  explicit ThemeController(QObject* parent = nullptr);
  ~ThemeController() override;

  QActionGroup* actions() const { return group_; }
  QString theme() const; // system, light or dark
  // Checks the theme's action and applies it; an unknown name follows the system.
  void setTheme(const QString& theme);
  // The Fusion style light takes its palette from; null until light was first chosen.
  const QStyle* lightStyle() const { return fusion_.get(); }

private:
  void apply(const QString& theme);

  QActionGroup* group_;
  QPalette systemPalette_;
  std::unique_ptr<QStyle> fusion_; // created on the first switch to light
};

} // namespace tessera::gui
