// A window for tests: no settings read or written, errors logged instead of shown in dialogs, and
// sessions recorded under `sessionDirectory` (a test's temporary directory), not the user's.
#pragma once

#include "MainWindow.h"

#include <QString>

namespace tessera::gui {

inline MainWindowOptions testWindowOptions(const QString& sessionDirectory = {}) {
  MainWindowOptions options;
  options.persistSettings = false;
  options.interactiveErrors = false;
  options.sessionDirectory = sessionDirectory;
  return options;
}

} // namespace tessera::gui
