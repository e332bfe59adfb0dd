// Graphs and helpers shared by the GUI tests: small hand-built graphs with known answers, a
// DenseNet generator for the size target, and waiting on the event loop.
#pragma once

#include "ir/Graph.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera::testing {

TensorType f32(Shape shape);

// x -> conv(w1) -> relu -> "a";  x -> conv(w2, 3x3 pad 1) -> relu -> "b";  concat(a, b) -> y.
// Inception-style branches: eqsat fuses conv+relu and merges the convs.
Graph branchesGraph();

// DenseNet as torchvision exports it (every layer concatenates all earlier features of its block).
// {6,12,24,16} is DenseNet-121 (427 ops, 606 weights); {6,12,64,48} is DenseNet-264 (about 930 ops).
Graph denseNet(const std::vector<int>& blocks, int growth = 32);

std::string samplePath(const std::string& name); // <source>/samples/<name>.onnx

// Processes events until `done` holds or `timeoutMs` passes; returns done().
bool waitUntil(const std::function<bool()>& done, int timeoutMs);

} // namespace tessera::testing
