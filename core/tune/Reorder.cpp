// reorder: permute loops among the positions they hold.
#include "tune/Primitives.h"

#include "support/Error.h"

#include <algorithm>

namespace tessera::tune {

void reorder(LoopNest& nest, const std::vector<std::string>& order) {
  std::vector<int> positions;
  for (const std::string& name : order) {
    int index = nest.loopIndex(name);
    if (std::find(positions.begin(), positions.end(), index) != positions.end())
      throw Error("reorder: loop '" + name + "' named twice");
    positions.push_back(index);
  }
  std::vector<Loop> moved;
  for (int index : positions) moved.push_back(nest.loops[index]);
  std::sort(positions.begin(), positions.end());
  for (size_t i = 0; i < positions.size(); ++i) nest.loops[positions[i]] = moved[i];
}

} // namespace tessera::tune
