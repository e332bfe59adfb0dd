#include "ModelLabel.h"

#include <algorithm>
#include <filesystem>

namespace tessera::cli {

std::string modelLabel(const std::string& path, const std::vector<std::string>& all) {
  const std::filesystem::path file(path);
  const auto sameStem = std::count_if(all.begin(), all.end(), [&](const std::string& other) { return std::filesystem::path(other).stem() == file.stem(); });
  if (sameStem < 2) return file.stem().string();
  return file.parent_path().filename().string() + "/" + file.stem().string();
}

} // namespace tessera::cli
