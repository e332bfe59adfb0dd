#include "cost/AnalyticCostModel.h"

#include "cost/OpWork.h"
#include "cost/TableCostModel.h"
#include "support/Error.h"

#include <algorithm>

namespace tessera {

double AnalyticCostModel::costMs(const OpSignature& signature) {
  OpWork work = opWork(signature);
  if (work.isFree) return 0.0;
  double computeSeconds = work.flops / (device_.peakGflops * 1e9 * device_.computeEfficiency);
  double memorySeconds = work.bytes / (device_.bandwidthGBs * 1e9 * device_.memoryEfficiency);
  return (std::max(computeSeconds, memorySeconds) + device_.launchOverheadUs * 1e-6) * 1e3;
}

std::unique_ptr<CostModel> makeCostModel(const std::string& spec) {
  std::string kind = spec.substr(0, spec.find(':'));
  std::string argument = spec.find(':') == std::string::npos ? std::string() : spec.substr(spec.find(':') + 1);
  if (kind == "analytic") {
    std::string device = argument.empty() ? "h200" : argument;
    const DeviceProfile* profile = findDeviceProfile(device);
    if (!profile) {
      std::string known;
      for (const DeviceProfile& p : deviceProfiles()) known += (known.empty() ? "" : ", ") + p.name;
      throw Error("unknown device '" + device + "' in cost spec '" + spec + "' (known: " + known + ")");
    }
    return std::make_unique<AnalyticCostModel>(*profile);
  }
  if (kind == "table") {
    if (argument.empty()) throw Error("cost spec 'table:' needs a file: table:FILE (written by `tessera-cli costs export`)");
    return std::make_unique<TableCostModel>(argument);
  }
  if (kind == "measured")
    throw Error("cost spec '" + spec + "' needs a measuring plugin; core alone cannot measure (tessera-cli loads plugins)");
  throw Error("unknown cost spec '" + spec + "' (use analytic:<device>, measured:cpu, measured:cuda or table:FILE)");
}

} // namespace tessera
