// Where a shard's command writes its result.
#include "launch/Shard.h"

namespace tessera::launch {

std::vector<std::string> argvWritingTo(const Shard& shard, const std::string& path) {
  const std::string placeholder = kOutputPlaceholder;
  std::vector<std::string> argv = shard.argv;
  for (std::string& arg : argv)
    for (size_t at = arg.find(placeholder); at != std::string::npos; at = arg.find(placeholder, at + path.size()))
      arg.replace(at, placeholder.size(), path);
  return argv;
}

} // namespace tessera::launch
