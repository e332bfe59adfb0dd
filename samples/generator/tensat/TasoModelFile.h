// Reads the TASO-serialised graphs TENSAT benchmarks (TASO's `export_to_file` format, see
// taso/README.md) into a Graph the way TENSAT's `parse_model` builds its start expression.
#pragma once

#include "ir/Graph.h"

#include <string_view>

namespace tessera::samples {

// `modelName` names the graph and the errors. Throws tessera::Error naming the model and the op
// line when the text is malformed or uses an op TENSAT's reader does not read.
Graph readTasoModel(std::string_view modelName, std::string_view text);

} // namespace tessera::samples
