// What the session tests share: temp files, a sample model, a candidate with provenance, events of
// every kind, and field-by-field event comparison (the event structs have no operator==).
#pragma once

#include "events/Event.h"
#include "ir/Graph.h"
#include "search/Strategy.h"

#include <string>
#include <vector>

namespace tessera::test {

// A fresh path (no file yet) in a per-test temp directory.
std::string tempSessionPath(const std::string& tag);
Graph sampleModel(const std::string& name = "squeezenet");
// The graph with a few nodes attributed to rules, as a strategy reports them.
Candidate sampleCandidate(const Graph& graph, double costMs, int step);
// One event of each kind, with unusual values (infinity, empty strings, many children).
std::vector<Event> eventsOfEveryKind();
// `count` events cycling through the kinds, sequence numbers from `firstSequence`.
std::vector<Event> manyEvents(size_t count, uint64_t firstSequence = 0);
// How many of `events` are user decisions (the decisions table holds one row each).
size_t decisionsAmong(const std::vector<Event>& events);
bool sameEvent(const Event& a, const Event& b);
std::string fileBytes(const std::string& path);
void writeBytes(const std::string& path, const std::string& bytes);

} // namespace tessera::test
