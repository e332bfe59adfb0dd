// The measuring side of a cost model: times one op signature on a real device. Backends in
// plugins/ implement it (oneDNN on the CPU, cuDNN/cuBLAS on a GPU); MeasuredCostModel decides
// what to measure, caches the results and estimates what a backend cannot run.
#pragma once

#include "cost/OpSignature.h"

#include <string>

namespace tessera {

class OpProfiler {
public:
  virtual ~OpProfiler() = default;
  // The cache key of the device measured on, e.g. "cpu:AMD EPYC 7B13 (2 threads)".
  virtual std::string device() const = 0;
  // False for ops this backend has no kernel for.
  virtual bool canMeasure(const OpSignature& signature) = 0;
  // Milliseconds for one execution (median of timed runs after warm-up). Precondition:
  // canMeasure(signature). Throws tessera::Error when the device fails or has gone away.
  virtual double measureMs(const OpSignature& signature) = 0;
  // CostModel::foldedIntoProducer as the device's runtime does it; by default it folds nothing.
  virtual bool foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const {
    (void)producer;
    (void)op;
    return false;
  }
  // CostModel::slicesContiguousSplits for the device's executor; by default it copies.
  virtual bool slicesContiguousSplits() const { return false; }
};

} // namespace tessera
