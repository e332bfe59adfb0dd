// The guided description of the teaching sample (samples/teaching/phase_ordering.onnx), for the
// app to show next to the model: what to run, what to watch in the live views, what it teaches.
#pragma once

#include <QString>

namespace tessera::views {

QString teachingSampleFileName(); // "phase_ordering.onnx"
QString teachingGuideHtml();

} // namespace tessera::views
