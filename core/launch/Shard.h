// A shard: one command line whose result is one file. The launchers run shards as child
// processes or as Slurm array tasks; a shard is done exactly when its output file exists.
#pragma once

#include <string>
#include <vector>

namespace tessera::launch {

// In a shard's argv, where the path the command must write its result to goes. The launcher passes
// a temporary path beside `output` and renames it to `output` once the command exits 0, so a
// result is either complete or absent, whatever kills the shard.
inline constexpr const char* kOutputPlaceholder = "{output}";

struct Shard {
  std::string name;              // what progress calls it ("matmul:64x64x64")
  std::vector<std::string> argv; // argv[0] is looked up in PATH; kOutputPlaceholder where the result goes
  std::string output;            // absolute path of the finished result
  std::vector<std::string> env;  // NAME=VALUE set for this shard
};

// argv with every kOutputPlaceholder replaced by `path`.
std::vector<std::string> argvWritingTo(const Shard& shard, const std::string& path);

} // namespace tessera::launch
