// libFuzzer target: arbitrary bytes into the ONNX importer, and every graph it accepts into the
// exporter. A Graph or a tessera::Error are the only acceptable outcomes; a crash, a leak,
// undefined behaviour or any other exception is a bug (the fuzz preset adds ASan and UBSan).
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"
#include "support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tessera::Graph graph;
  try {
    graph = tessera::onnx_io::importOnnxBytes(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.onnx");
  } catch (const tessera::Error&) {
    return 0;
  }
  // What callers do next with an imported graph: walk it and write it back.
  graph.topologicalOrder();
  try {
    tessera::onnx_io::exportOnnxBytes(graph);
  } catch (const tessera::Error&) {
  }
  return 0;
}
