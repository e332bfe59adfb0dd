// A launch's work directory: the logs of its shards, the Slurm array script and the launch's
// state, and the checks that it can be used.
#pragma once

#include <string>

namespace tessera::launch {

class WorkDir {
public:
  // Creates the directory (and logs/ in it) and proves it writable by writing and renaming a file;
  // throws tessera::Error naming the directory and the problem.
  explicit WorkDir(const std::string& path);

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  std::string shardLog(size_t index) const;

private:
  std::string path_; // absolute
};

// Writes `text` to `path` through a temporary file in the same directory and a rename.
void writeFileAtomically(const std::string& path, const std::string& text);

bool fileExists(const std::string& path);

// The file system type of `path` by name ("nfs", "ext4", "tmpfs", …) and whether nodes other than
// this one can see it (a network or cluster file system).
struct FileSystemKind {
  std::string name;
  bool shared = false;
};
FileSystemKind fileSystemOf(const std::string& path);

} // namespace tessera::launch
