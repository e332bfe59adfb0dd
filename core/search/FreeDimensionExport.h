// Exported models keep the original's free dimensions (symbolic or unknown input sizes) where the
// optimised graph does not depend on them. The IR's shapes are static, so whether it does is
// found by trying: the export with the dimension left open is imported at another size of it and
// checked against the original model imported at that size. Where that fails (a Reshape whose
// target baked the bound batch, say) the dimension is pinned at the size it was bound to, and the
// outcome says why.
#pragma once

#include "ir/Graph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

struct FreeDimensionOutcome {
  std::string label;     // onnx_io::freeAxisLabel: the dim_param, or "x[3]" for an unnamed axis
  int64_t size = 0;      // the size the graph was imported at; written where pinned
  int64_t triedSize = 0; // the other size it was checked at
  bool open = false;     // written open in the file
  bool ran = false;      // checked by running both graphs, not only by importing them
  std::string detail;    // pinned: why; open: how it was checked
};

struct FreeDimensionExport {
  std::string bytes; // the model file
  std::vector<FreeDimensionOutcome> dims;
};

struct FreeDimensionCheck {
  int trials = 1;
  uint64_t seed = 1;
  // A graph whose op outputs at the other size hold more elements than this in all is checked by
  // import and output shapes only: the reference interpreter would take long over it.
  int64_t maxElementsToRun = int64_t{1} << 26;
};

// The ONNX export of `optimized` with every free dimension of `original` (info.freeAxes) that the
// check lets stay open written open, the others at their bound sizes. Each dimension is tried
// alone at twice its size: the open export and `originalBytes` (the original's model file, named
// `originalName` in messages) are both imported at that size, their outputs must have the same
// shapes, and, unless too large (FreeDimensionCheck), they are verified (interp/Verify.h). A graph
// without free dimensions exports as onnx_io::exportOnnxBytes does. Throws tessera::Error when
// `optimized` cannot be exported at all.
FreeDimensionExport exportKeepingFreeDimensions(const Graph& optimized, const Graph& original, std::string_view originalBytes,
                                                const std::string& originalName, const FreeDimensionCheck& check = {});

// Imports model `bytes` at the input sizes `original` was imported at, except free dimension
// `label` (when not empty) at `size`. Inputs the file lacks are left out of the bindings.
Graph importAtOriginalSizes(std::string_view bytes, const std::string& name, const Graph& original, const std::string& label = {},
                            int64_t size = 0);

} // namespace tessera
