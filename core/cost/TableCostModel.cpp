#include "cost/TableCostModel.h"

#include "cost/AnalyticCostModel.h"
#include "cost/OpWork.h"

namespace tessera {

TableCostModel::TableCostModel(const std::string& path) : path_(path), table_(readCostTable(path)) {
  const DeviceProfile* h200 = findDeviceProfile("h200");
  fallback_ = std::make_unique<AnalyticCostModel>(table_.fallbackProfile ? *table_.fallbackProfile : *h200);
}

double TableCostModel::costMs(const OpSignature& signature) {
  if (opWork(signature).isFree) return 0.0;
  if (auto it = table_.costs.find(signature.key()); it != table_.costs.end()) {
    ++hits_;
    return it->second;
  }
  ++misses_;
  ++missedOps_[std::string(opName(signature.kind))];
  return fallback_->costMs(signature);
}

std::string TableCostModel::summary() const {
  std::string line = spec() + " (" + table_.device + ", " + std::to_string(table_.costs.size()) + " signatures): " +
                     std::to_string(hits_) + " found, " + std::to_string(misses_) + " estimated by " + fallback_->spec();
  if (missedOps_.empty()) return line;
  line += " (";
  bool first = true;
  for (const auto& [op, count] : missedOps_) {
    line += (first ? "" : ", ") + op + " " + std::to_string(count);
    first = false;
  }
  return line + ")";
}

} // namespace tessera
