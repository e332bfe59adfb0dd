// Assembling and linking a reordered kernel.
#include "sip/KernelLibrary.h"

#include "sip/NativeCode.h"

#include "tune/Builder.h"
#include "tune/Subprocess.h"

#include <filesystem>
#include <fstream>

#include <unistd.h>

namespace tessera::sip {

namespace fs = std::filesystem;

KernelLibrary buildKernelLibrary(const std::string& assembly, bool openmp, const std::string& cacheDir, const std::string& compiler) {
  KernelLibrary result;
  const fs::path dir = cacheDir.empty() ? tune::defaultCacheDir() : cacheDir;
  const fs::path library = dir / ("sip-" + tune::contentHash(compiler + (openmp ? " openmp" : "") + "\n" + assembly) + ".so");
  if (fs::exists(library)) {
    result.library = library.string();
    return result;
  }
  AssembledObject object = x86McAdapter()->assemble(assembly);
  if (!object.ok()) {
    result.assembleFailed = true;
    result.error = "the MC layer cannot assemble it: " + object.error.substr(0, 2000);
    return result;
  }
  // Private names, then a rename: another run on the same cache never sees half a file.
  const std::string suffix = ".tmp" + std::to_string(::getpid());
  const std::string objectFile = library.string() + ".o" + suffix;
  {
    std::ofstream out(objectFile, std::ios::binary);
    out.write(object.bytes.data(), static_cast<std::streamsize>(object.bytes.size()));
    if (!out) {
      result.error = "cannot write " + objectFile;
      return result;
    }
  }
  const std::string temporary = library.string() + suffix;
  tune::Command link{{compiler, "-shared", "-o", temporary, objectFile}, {}, temporary + ".log"};
  if (openmp) link.argv.push_back("-fopenmp");
  tune::ProcessResult linked = tune::runCommands({link}, 1, 60).at(0);
  std::error_code ec;
  fs::remove(objectFile, ec);
  if (!linked.succeeded()) {
    fs::remove(temporary, ec);
    result.error = "link failed (" + linked.describe() + "): " + linked.output.substr(0, 2000);
    return result;
  }
  fs::rename(temporary, library, ec);
  if (ec) {
    result.error = "cannot move the linked kernel to " + library.string() + ": " + ec.message();
    return result;
  }
  result.library = library.string();
  return result;
}

} // namespace tessera::sip
