// search/Strategy.h (and with it events/EventSink.h) for code that also includes Qt: Qt's `emit`
// keyword is a macro that would erase the name of EventStream::emit, so it is lifted while the core
// header is read. Include this instead of search/Strategy.h in views/ and app/gui/, in any order.
#pragma once

#pragma push_macro("emit")
#undef emit
#include "search/Strategy.h"
#pragma pop_macro("emit")
