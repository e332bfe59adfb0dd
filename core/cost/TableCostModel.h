// `table:FILE`: costs measured elsewhere (an exported cost table), for users without the
// device. Signatures the table lacks (new ones a rewrite creates) are estimated by the table's
// own roofline when it carries one, else by analytic:h200; the miss count says how many.
#pragma once

#include "cost/CostModel.h"
#include "cost/CostTable.h"

#include <map>
#include <memory>
#include <string>

namespace tessera {

class TableCostModel final : public CostModel {
public:
  // Throws tessera::Error naming the file when it is not a readable cost table.
  explicit TableCostModel(const std::string& path);

  double costMs(const OpSignature& signature) override;
  std::string spec() const override { return "table:" + path_; }

  const CostTable& table() const { return table_; }
  size_t hits() const { return hits_; }
  size_t misses() const { return misses_; }
  const std::map<std::string, size_t>& missedOps() const { return missedOps_; }
  // "table:F (cpu:X, 120 signatures): 40 found, 3 estimated by analytic:... (Conv 2, Add 1)".
  std::string summary() const;

private:
  std::string path_;
  CostTable table_;
  std::unique_ptr<CostModel> fallback_;
  size_t hits_ = 0;
  size_t misses_ = 0;
  std::map<std::string, size_t> missedOps_;
};

} // namespace tessera
