#include "xrlflow/ModuleWeights.h"

#include "support/Error.h"

#include <torch/serialize.h>

#include <sstream>
#include <utility>
#include <vector>

namespace tessera {

std::string moduleWeights(const torch::nn::Module& module) {
  torch::serialize::OutputArchive archive;
  module.save(archive);
  std::ostringstream out;
  archive.save_to(out);
  return out.str();
}

void restoreModuleWeights(torch::nn::Module& module, const std::string& weights) {
  std::vector<std::pair<std::string, std::vector<int64_t>>> expected;
  for (const auto& parameter : module.named_parameters()) expected.emplace_back(parameter.key(), parameter.value().sizes().vec());
  torch::serialize::InputArchive archive;
  std::istringstream in(weights);
  archive.load_from(in);
  module.load(archive);
  const auto loaded = module.named_parameters();
  for (const auto& [name, shape] : expected) {
    const torch::Tensor* parameter = loaded.find(name);
    if (!parameter || parameter->sizes().vec() != shape) throw Error("parameter " + name + " does not have the shape the agent's config gives it");
  }
}

} // namespace tessera
