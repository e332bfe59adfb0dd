// The event log's encoding: each Event's payload as compact JSON, its kind by name (so reordering
// EventPayload never changes the meaning of a stored log). Decoding is exact: decode(encode(e)) == e.
#pragma once

#include "events/Event.h"

#include <string>
#include <string_view>

namespace tessera {

namespace event_codec {

std::string encodePayload(const EventPayload& payload);
// Throws tessera::Error for an unknown kind or a payload that does not fit it.
EventPayload decodePayload(std::string_view kindName, std::string_view json);
// Throws tessera::Error for a name that is not an EventKind.
EventKind kindFromName(std::string_view name);

} // namespace event_codec

} // namespace tessera
