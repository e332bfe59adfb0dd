// Help ▸ Teaching Sample's files: the bundled phase_ordering.tsession, and the user's copy of it that
// their runs go into (the bundled file is never written).
#pragma once

#include <QString>

namespace tessera::gui {

// The bundled teaching session, empty when this installation has none.
QString bundledTeachingSession();
// The user's copy in `sessionDirectory` (the teaching model's default session), made on first use;
// empty, with `error` saying why, when there is no bundled session or it cannot be copied.
QString teachingSessionCopy(const QString& sessionDirectory, QString* error);
// Whether `path` (a model or a session) is the teaching sample, whose guide is shown with it.
bool isTeachingSample(const QString& path);

} // namespace tessera::gui
