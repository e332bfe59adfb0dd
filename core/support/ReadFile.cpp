#include "support/ReadFile.h"

#include "support/Error.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessera {

std::string readFileBytes(const std::string& path, uintmax_t maxBytes) {
  std::error_code ec;
  std::filesystem::file_status status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw errorInFile(path, "cannot open: no such file");
  if (std::filesystem::is_directory(status)) throw errorInFile(path, "cannot open: it is a directory");
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > maxBytes) {
    bool wholeGiB = maxBytes % (uintmax_t{1} << 30) == 0;
    throw errorInFile(path, "the file is larger than " + std::to_string(wholeGiB ? maxBytes >> 30 : maxBytes >> 20) +
                                (wholeGiB ? " GiB" : " MiB"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw errorInFile(path, std::string("cannot open: ") + std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw errorInFile(path, "cannot read the file");
  return bytes;
}

} // namespace tessera
