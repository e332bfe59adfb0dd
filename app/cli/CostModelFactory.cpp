#include "CostModelFactory.h"

namespace tessera::cli {

std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec) { return makeCostModel(spec); }

} // namespace tessera::cli
