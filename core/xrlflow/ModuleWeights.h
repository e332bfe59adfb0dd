// A libtorch module's weights as bytes and back: what an agent's checkpoint holds and what
// training keeps of its best episode. Shared by the X-RLflow and RLFlow agents.
#pragma once

#include <torch/nn/module.h>

#include <string>

namespace tessera {

std::string moduleWeights(const torch::nn::Module& module);

// Loads `weights` into `module`, then checks that every parameter kept the shape the module was
// built with (libtorch replaces a tensor whatever its shape); throws tessera::Error naming the
// first one that did not.
void restoreModuleWeights(torch::nn::Module& module, const std::string& weights);

} // namespace tessera
