// A line edit's clear button, given to it when it first holds text: the button's icon costs an
// icon-theme lookup (10 ms or more, the first time in a process) that would otherwise lengthen the
// window's start-up, and Qt shows the button only over text anyway.
#pragma once

class QLineEdit;

namespace tessera::views {

void addClearButtonOnFirstText(QLineEdit* field);

} // namespace tessera::views
