#include "ThemeController.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QStyle>
#include <QStyleFactory>

#include <utility>

namespace tessera::gui {

namespace {

QPalette darkPalette() {
  QPalette p;
  QColor window(0x2b, 0x2d, 0x30), base(0x1e, 0x1f, 0x22), text(0xe6, 0xe6, 0xe6), disabled(0x7a, 0x7d, 0x82);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x8f, 0xd6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::ToolTipBase, window);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, QColor(0x8a, 0x8f, 0x95));
  p.setColor(QPalette::Link, QColor(0x6a, 0xb0, 0xf3));
  p.setColor(QPalette::Light, QColor(0x45, 0x47, 0x4b));
  p.setColor(QPalette::Midlight, QColor(0x3a, 0x3c, 0x40));
  p.setColor(QPalette::Mid, QColor(0x25, 0x26, 0x29));
  p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
  p.setColor(QPalette::Shadow, Qt::black);
  for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, disabled);
  return p;
}

} // namespace

ThemeController::ThemeController(QObject* parent)
    : QObject(parent), group_(new QActionGroup(this)), systemPalette_(QGuiApplication::palette()) {
  for (const auto& [name, label] : {std::pair{"system", tr("Follow the &System")}, std::pair{"light", tr("&Light")},
                                    std::pair{"dark", tr("&Dark")}}) {
    auto* action = new QAction(label, group_);
    action->setCheckable(true);
    action->setData(QString::fromLatin1(name));
    connect(action, &QAction::triggered, this, [this, action] { apply(action->data().toString()); });
  }
  group_->actions().front()->setChecked(true);
}

ThemeController::~ThemeController() = default;

QString ThemeController::theme() const {
  const QAction* checked = group_->checkedAction();
  return checked ? checked->data().toString() : QStringLiteral("system");
}

void ThemeController::setTheme(const QString& theme) {
  QAction* chosen = group_->actions().front();
  for (QAction* action : group_->actions())
    if (action->data().toString() == theme) chosen = action;
  chosen->setChecked(true);
  apply(chosen->data().toString());
}

void ThemeController::apply(const QString& theme) {
  if (theme == QLatin1String("dark")) {
    QApplication::setPalette(darkPalette());
    return;
  }
  if (theme != QLatin1String("light")) {
    QApplication::setPalette(systemPalette_);
    return;
  }
  if (!fusion_) fusion_.reset(QStyleFactory::create(QStringLiteral("Fusion")));
  QApplication::setPalette(fusion_ ? fusion_->standardPalette() : systemPalette_);
}

} // namespace tessera::gui
