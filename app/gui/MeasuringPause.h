// While a search of the explorer's own runs, the explorer's other measuring waits: the search's
// threads and a timing share the machine's cores (two, on the machines this runs on), so an op or
// a graph timed beside it comes out too slow, and the cost cache would keep the op's figure.
// Analytic pricing never waits, nor does the search itself (it times ops on its own thread,
// between its steps). What waits is listed for the status bar.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace tessera::gui {

// Held by a search's worker thread for its whole run: the search, do no harm and the pricing of
// what it returns.
class OwnSearchRunning {
public:
  OwnSearchRunning();
  ~OwnSearchRunning();
  OwnSearchRunning(const OwnSearchRunning&) = delete;
  OwnSearchRunning& operator=(const OwnSearchRunning&) = delete;
};

bool ownSearchRunning();

// Blocks the calling thread while a search of the explorer's own runs, with `what` ("pricing with
// measured:cpu") listed by measuringWaits() meanwhile. Returns at once where no search runs, on a
// search's own worker, and on the UI thread (never blocked; nothing measures there).
void waitForOwnSearch(const std::string& what);

// What waits now, in the order it began to.
std::vector<std::string> measuringWaits();

// `changed` hears every change of measuringWaits(), on the thread that made it, until unwatched
// by the id returned (each window's status bar watches).
int watchMeasuringWaits(std::function<void()> changed);
void unwatchMeasuringWaits(int id);

} // namespace tessera::gui
