#include "OrtProfiler.h"

#include "SingleOpGraph.h"

#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <map>


namespace tessera::ort {

namespace {

// TASO's counts (the CPU plugin's too): 8 warm-up and 32 timed runs; slow ops get 2 and 8.
constexpr int kWarmup = 8, kRuns = 32, kSlowWarmup = 2, kSlowRuns = 8;
constexpr double kSlowMs = 25;
// An op never costs less than this (a node ORT removes, such as a Relu fused into a Conv, shows no time).
constexpr double kFloorMs = 0.001;

} // namespace

OrtProfiler::OrtProfiler(const OrtInstall& install, std::string device) : worker_(install), device_(std::move(device)) {}

bool OrtProfiler::canMeasure(const OpSignature& signature) {
  const std::vector<OpSignature> parts = timedAs(signature);
  const std::vector<TensorType> borders = nchwcBordersOf(signature);
  const std::string key = signature.key();
  return std::all_of(parts.begin(), parts.end(), [&](const OpSignature& part) { return part.key() == key ? canLoad(part) : canMeasure(part); }) &&
         std::all_of(borders.begin(), borders.end(), [&](const TensorType& border) { return canLoad(reorderProbe(border)); });
}

bool OrtProfiler::canLoad(const OpSignature& signature) {
  const std::string key = signature.key();
  if (auto it = loaded_.find(key); it != loaded_.end()) return !it->second.empty();
  std::string& path = loaded_[key];
  // Measured costs are float32 timings; ops Tessera cannot rebuild or write as ONNX are estimated.
  for (const TensorType& t : signature.inputs)
    if (t.dtype != DType::Float32) return false;
  const std::string file = (worker_.scratch() / ("op" + std::to_string(modelsWritten_++) + ".onnx")).string();
  try {
    onnx_io::exportOnnxFile(singleOpGraph(signature), file);
  } catch (const Error&) {
    return false;
  }
  try {
    worker_.request({{"cmd", "load"}, {"model", file}});
  } catch (const Error&) {
    std::filesystem::remove(file);
    // A model ORT refuses is estimated; a worker that died fails in measureMs, where the cost
    // model hears of it and estimates from then on.
    if (worker_.running()) return false;
    path = file;
    return true;
  }
  path = file;
  return true;
}

ModelTiming OrtProfiler::timeModel(const std::string& path) {
  const std::string scratch = worker_.scratch().string();
  nlohmann::json reply = worker_.request({{"cmd", "profile"}, {"model", path}, {"warmup", 1}, {"runs", 1}, {"out_dir", scratch}});
  const bool slow = reply.at("ms").at(0).get<double>() > kSlowMs;
  reply = worker_.request({{"cmd", "profile"}, {"model", path}, {"warmup", slow ? kSlowWarmup : kWarmup}, {"runs", slow ? kSlowRuns : kRuns},
                           {"out_dir", scratch}});
  worker_.request({{"cmd", "unload"}, {"model", path}});
  // The fastest run, not the median: other processes only ever add time to a run, and on a shared
  // machine a median of sub-millisecond runs often measures them instead of the op.
  const std::vector<double> ms = reply.at("ms").get<std::vector<double>>();
  const std::vector<double> reorderMs = reply.at("reorder_ms").get<std::vector<double>>();
  if (reorderMs.size() != ms.size()) throw Error("the ONNX Runtime worker gave " + std::to_string(reorderMs.size()) + " reorder times for " + std::to_string(ms.size()) + " runs");
  ModelTiming timing{*std::min_element(ms.begin(), ms.end()), *std::min_element(reorderMs.begin(), reorderMs.end()), 0};
  timing.opsMs = std::numeric_limits<double>::max();
  for (size_t run = 0; run < ms.size(); ++run) timing.opsMs = std::min(timing.opsMs, ms[run] - reorderMs[run]);
  return timing;
}

ModelTiming OrtProfiler::timeLoaded(const OpSignature& signature) {
  if (!canLoad(signature)) throw Error("measured:ort cannot time " + signature.key());
  auto it = loaded_.find(signature.key());
  const std::string path = it->second;
  loaded_.erase(it); // measured once; the cost cache remembers the result
  try {
    const ModelTiming timing = timeModel(path);
    std::filesystem::remove(path);
    return timing;
  } catch (const Error& e) {
    std::filesystem::remove(path);
    throw Error("ONNX Runtime failed while timing " + signature.key() + ": " + e.what());
  }
}

double OrtProfiler::measureMs(const OpSignature& signature) {
  if (!canMeasure(signature)) throw Error("measured:ort cannot time " + signature.key());
  const std::string key = signature.key();
  double ms = 0;
  for (const OpSignature& part : timedAs(signature)) ms += part.key() == key ? std::max(timeLoaded(part).opsMs, kFloorMs) : measureMs(part);
  // A split into equal parts has equal borders: each distinct one is timed once.
  std::map<std::string, std::pair<OpSignature, int>> borders;
  for (const TensorType& border : nchwcBordersOf(signature)) {
    OpSignature probe = reorderProbe(border);
    std::string probeKey = probe.key();
    ++borders.try_emplace(std::move(probeKey), std::move(probe), 0).first->second.second;
  }
  for (const auto& [probeKey, probeAndCount] : borders) ms += probeAndCount.second * timeLoaded(probeAndCount.first).reordersMs;
  return ms;
}

bool OrtProfiler::foldedIntoProducer(const OpSignature& producer, const OpSignature& op) const {
  // ORT's ConvBNFusion; a conv Tessera fused an activation into is written as Conv then the
  // activation, which ORT does not fold a batch norm through.
  return op.kind == OpKind::BatchNorm && producer.kind == OpKind::Conv && producer.attrs.getInt("activation", 0) == 0;
}

} // namespace tessera::ort
