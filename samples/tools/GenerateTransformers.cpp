// tessera-generate-transformers DIR: writes the BERT-base layer and the GPT-2 block as
// DIR/<name>.onnx. The files committed in samples/transformers/ come from
// `tessera-generate-transformers samples/transformers`.
#include "generator/Transformers.h"
#include "support/Error.h"

#include <cstdio>
#include <filesystem>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  try {
    tessera::writeTransformerModels(argv[1]);
    for (const std::string& name : tessera::transformerModelNames()) {
      std::filesystem::path path = std::filesystem::path(argv[1]) / (name + ".onnx");
      std::printf("%s (%ju bytes)\n", path.string().c_str(), static_cast<uintmax_t>(std::filesystem::file_size(path)));
    }
  } catch (const tessera::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  return 0;
}
