// tessera-generate-samples DIR [SUITE]: writes the nine benchmark models as DIR/<name>.onnx. The
// files committed in samples/ come from `tessera-generate-samples samples`, those in
// samples/tensat/ from `tessera-generate-samples samples/tensat tensat`.
#include "generator/BenchmarkModels.h"
#include "support/Error.h"

#include <cstdio>
#include <filesystem>

int main(int argc, char** argv) {
  if (argc != 2 && argc != 3) {
    std::fprintf(stderr, "usage: %s DIR [corrected|tensat]\n", argv[0]);
    return 2;
  }
  try {
    tessera::writeBenchmarkModels(argv[1], tessera::parseBenchmarkSuite(argc == 3 ? argv[2] : "corrected"));
    for (const std::string& name : tessera::benchmarkModelNames()) {
      std::filesystem::path path = std::filesystem::path(argv[1]) / (name + ".onnx");
      std::printf("%s (%ju bytes)\n", path.string().c_str(), static_cast<uintmax_t>(std::filesystem::file_size(path)));
    }
  } catch (const tessera::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
