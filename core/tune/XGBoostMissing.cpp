// A build without libxgboost-dev: no learned cost model, and a message saying how to get one.
#include "tune/CostModel.h"

#include "support/Error.h"

namespace tessera::tune {

bool xgboostAvailable() { return false; }

std::unique_ptr<CostModel> makeXGBoostModel(uint64_t) {
  throw Error("the XGBoost cost model is unavailable: this build has no XGBoost (install libxgboost-dev and "
              "reconfigure); use --search random");
}

} // namespace tessera::tune
