#include "search/mcts/PriorModel.h"

#include "support/Error.h"

#include <mutex>

namespace tessera::mcts {

namespace {
std::mutex loaderMutex;
PriorModelLoader& registeredLoader() {
  static PriorModelLoader loader;
  return loader;
}
} // namespace

void registerPriorModelLoader(PriorModelLoader loader) {
  std::lock_guard lock(loaderMutex);
  registeredLoader() = std::move(loader);
}

std::unique_ptr<PriorModel> loadPriorModel(const std::string& path, std::span<const Rule* const> rules) {
  PriorModelLoader loader;
  {
    std::lock_guard lock(loaderMutex);
    loader = registeredLoader();
  }
  if (!loader)
    throw Error("mcts: parameter prior=" + path + " needs the PUCT agent, which this build of Tessera lacks (it was configured "
                "without libtorch)");
  return loader(path, rules);
}

} // namespace tessera::mcts
