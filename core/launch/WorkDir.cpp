// Work directories: created, proved writable, and told apart by file system (local or shared).
#include "launch/WorkDir.h"

#include "support/Error.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include <sys/vfs.h>
#include <unistd.h>

namespace tessera::launch {

namespace fs = std::filesystem;

WorkDir::WorkDir(const std::string& path) {
  if (path.empty()) throw Error("no work directory given (--work-dir)");
  std::error_code ec;
  path_ = fs::absolute(path, ec).lexically_normal().string();
  if (path_.size() > 1 && path_.back() == '/') path_.pop_back();
  fs::create_directories(path_ + "/logs", ec);
  if (ec) throw errorInFile(path_, "cannot create the work directory: " + ec.message());
  const std::string probe = file(".write-probe");
  try {
    writeFileAtomically(probe, "tessera\n");
  } catch (const Error&) {
    throw errorInFile(path_, "the work directory is not writable");
  }
  fs::remove(probe, ec);
}

std::string WorkDir::shardLog(size_t index) const { return path_ + "/logs/shard-" + std::to_string(index) + ".log"; }

void writeFileAtomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::remove(temporary.c_str());
      throw errorInFile(path, "cannot write");
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    throw errorInFile(path, "cannot rename into place: " + why);
  }
}

bool fileExists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

FileSystemKind fileSystemOf(const std::string& path) {
  struct statfs info {};
  if (::statfs(path.c_str(), &info) != 0) return {"unknown", false};
  // statfs(2)'s magic numbers of the file systems clusters share between nodes.
  static const std::pair<long, const char*> shared[] = {
      {0x6969, "nfs"},           {0xFF534D42, "cifs"},   {0xFE534D42, "smb2"},  {0x517B, "smb"},
      {0x0BD00BD0, "lustre"},    {0x47504653, "gpfs"},   {0x00C36400, "ceph"},  {0x19830326, "beegfs"},
      {0x01021997, "9p"},        {0x5346414F, "afs"},    {0x20030528, "pvfs2"}, {0x65735546, "fuse"},
      {0x013111A8, "ibrix"},     {0x7461636F, "ocfs2"},  {0x01161970, "gfs2"},
  };
  static const std::pair<long, const char*> local[] = {
      {0xEF53, "ext4"}, {0x01021994, "tmpfs"}, {0x58465342, "xfs"}, {0x9123683E, "btrfs"}, {0x794C7630, "overlayfs"},
  };
  for (const auto& [magic, name] : shared)
    if (static_cast<long>(info.f_type) == magic) return {name, true};
  for (const auto& [magic, name] : local)
    if (static_cast<long>(info.f_type) == magic) return {name, false};
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%lx", static_cast<unsigned long>(info.f_type));
  return {std::string("type ") + hex, false};
}

} // namespace tessera::launch
