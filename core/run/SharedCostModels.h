// Cost models resolved once per spec and shared by every run of a program: bench's runs price with
// one model, the explorer's loader, compare view and search threads too. A measured model keeps
// state (its answers, the device) that two threads must not touch at once, and two threads timing
// ops together would distort both, so each shared model answers one caller at a time. A program
// may also hold back a caller that is about to time an op (the explorer, while its own search
// runs), before that caller takes its turn, so the others are not held with it.
#pragma once

#include "run/CostResolution.h"

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace tessera {

class SharedCostModels {
public:
  // Called on a caller's thread before a shared model times an op for it, with the model's spec;
  // it may block (outside the model's turn) until timing is welcome.
  using BeforeTiming = std::function<void(const std::string& spec)>;

  // `measured` builds measured:<backend> models (empty: this program has no plugin support).
  explicit SharedCostModels(MeasuredCostFactory measured, BeforeTiming beforeTiming = {});

  // The model of `spec`, resolved by resolveCostSpec on first use ("auto" is then also the model of
  // the spec it resolved to). A measured spec whose backend
  // is unusable answers with the default analytic model (its spec() says so, fallbackNote() why).
  // Throws tessera::Error for a spec that names no model.
  std::shared_ptr<CostModel> model(const std::string& spec);
  // Why model(spec) fell back; empty when it did not (or was not asked yet).
  std::string fallbackNote(const std::string& spec) const;

private:
  MeasuredCostFactory measured_;
  BeforeTiming beforeTiming_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<CostModel>> models_;
  std::map<std::string, std::string> notes_;
};

// The model a shared one answers through (for reports that ask a model what it did, such as a
// measured model's summary); `model` itself when it is not a shared one.
const CostModel& innerCostModel(const CostModel& model);

} // namespace tessera
