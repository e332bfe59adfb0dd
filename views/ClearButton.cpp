#include "ClearButton.h"

#include <QLineEdit>

namespace tessera::views {

void addClearButtonOnFirstText(QLineEdit* field) {
  auto enable = [field] {
    if (!field->text().isEmpty() && !field->isClearButtonEnabled()) field->setClearButtonEnabled(true);
  };
  QObject::connect(field, &QLineEdit::textChanged, field, enable);
  enable();
}

} // namespace tessera::views
