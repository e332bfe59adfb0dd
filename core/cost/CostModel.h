// A cost model maps an op signature to milliseconds. Analytic models live in core; measured
// backends (cuDNN/cuBLAS, oneDNN) are plugins that implement the same interface.
#pragma once

#include "cost/OpSignature.h"

#include <map>
#include <memory>
#include <string>

namespace tessera {

// Figures a device gave (measured or from the cost cache), by op signature key, for a session to keep.
struct DeviceCosts {
  std::string device;
  std::map<std::string, double> msBySignature;
};

class CostModel {
public:
  virtual ~CostModel() = default;
  // Milliseconds for one execution of the op. Must be deterministic for a given signature.
  virtual double costMs(const OpSignature& signature) = 0;
  // "analytic:h200", "measured:cuda", ... as given on the command line.
  virtual std::string spec() const = 0;
  // The device figures this model has answered with so far; empty for models that compute theirs.
  virtual DeviceCosts deviceCosts() const { return {}; }
  // Wall seconds this model has spent timing ops on a device so far; 0 for models that compute
  // their figures. A search's time limit leaves them out (SearchClock).
  virtual double measuringSeconds() const { return 0; }
  // Whether costMs(signature) asked now would time the op on a device (a measured model's first
  // sight of a signature its cost cache lacks), so a caller can first make room for the timing.
  // Models that compute their figures never time anything.
  virtual bool wouldTime(const OpSignature& signature) {
    (void)signature;
    return false;
  }
  // Whether the runtime removes `op` when it loads a model, folding it into `producer`, the op its
  // first operand comes from, when its other operands are weights and it is the producer's only
  // consumer (ONNX Runtime folds a BatchNormalization into the Conv before it). graphCost prices
  // such an op at nothing. The per-op models Tessera computes itself fold nothing.
  virtual bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const {
    (void)producer;
    (void)op;
    return false;
  }
  // Whether the runtime hands out the pieces of a split into contiguous pieces (isContiguousSplit)
  // as slices of its input and copies nothing (Tessera's CPU executor). Runtimes that copy each
  // piece (ONNX Runtime) and the per-op models Tessera computes say no.
  virtual bool slicesContiguousSplits() const { return false; }
};

// The analytic model used where nothing is measured: what a run falls back to when no measuring
// backend is usable, and what RL training and rule synthesis price with (deterministic, and free).
// A run's default is the machine's own measured backend (run/CostResolution.h, defaultCostSpec()).
inline constexpr const char* kPredictionCostSpec = "analytic:h200";

// Parses a cost spec that core can satisfy: "analytic:<device>" (default device h200).
// Throws tessera::Error for an unknown device or a spec that needs a plugin.
std::unique_ptr<CostModel> makeCostModel(const std::string& spec);

} // namespace tessera
