// The CLI's cost models: core's analytic and table models, and measured ones from plugins.
#pragma once

#include "cost/CostModel.h"

#include <memory>
#include <string>

namespace tessera::cli {

// Throws tessera::Error for an unknown or unusable spec.
std::unique_ptr<CostModel> makeCliCostModel(const std::string& spec);

} // namespace tessera::cli
