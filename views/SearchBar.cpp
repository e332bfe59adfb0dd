#include "SearchBar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace tessera::views {

SearchBar::SearchBar(QWidget* parent) : QFrame(parent) {
  setFrameShape(QFrame::StyledPanel);
  setAutoFillBackground(true);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 4, 4, 4);
  layout->setSpacing(4);
  field_ = new QLineEdit(this);
  field_->setPlaceholderText(tr("Find node: name, op or shape (op:Conv, 64x56x56)"));
  field_->setClearButtonEnabled(true);
  field_->setMinimumWidth(280);
  field_->installEventFilter(this);
  count_ = new QLabel(this);
  count_->setMinimumWidth(70);
  auto button = [this](const QString& text, const QString& tip) {
    auto* b = new QToolButton(this);
    b->setText(text);
    b->setToolTip(tip);
    b->setAutoRaise(true);
    return b;
  };
  QToolButton* previous = button(QStringLiteral("▲"), tr("Previous match (Shift+Enter)"));
  QToolButton* next = button(QStringLiteral("▼"), tr("Next match (Enter)"));
  QToolButton* close = button(QStringLiteral("✕"), tr("Close (Esc)"));
  layout->addWidget(field_);
  layout->addWidget(count_);
  layout->addWidget(previous);
  layout->addWidget(next);
  layout->addWidget(close);
  connect(field_, &QLineEdit::textChanged, this, [this](const QString& text) {
    if (onQueryChanged) onQueryChanged(text);
  });
  connect(previous, &QToolButton::clicked, this, [this] {
    if (onStep) onStep(true);
  });
  connect(next, &QToolButton::clicked, this, [this] {
    if (onStep) onStep(false);
  });
  connect(close, &QToolButton::clicked, this, [this] {
    if (onClose) onClose();
  });
  hide();
}

void SearchBar::activate() {
  show();
  raise();
  field_->setFocus(Qt::ShortcutFocusReason);
  field_->selectAll();
}

void SearchBar::setResult(int current, int total) {
  if (field_->text().trimmed().isEmpty()) {
    count_->clear();
    return;
  }
  count_->setText(total == 0 ? tr("no match") : tr("%1 of %2").arg(current + 1).arg(total));
}

QString SearchBar::query() const { return field_->text(); }
void SearchBar::setQuery(const QString& text) { field_->setText(text); }

bool SearchBar::eventFilter(QObject* watched, QEvent* event) {
  if (watched != field_ || event->type() != QEvent::KeyPress) return QFrame::eventFilter(watched, event);
  auto* key = static_cast<QKeyEvent*>(event);
  if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
    if (onStep) onStep(key->modifiers() & Qt::ShiftModifier);
    return true;
  }
  if (key->key() == Qt::Key_Escape) {
    if (onClose) onClose();
    return true;
  }
  return QFrame::eventFilter(watched, event);
}

} // namespace tessera::views
