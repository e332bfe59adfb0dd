#include "OrtProfiler.h"

#include "SingleOpGraph.h"

#include "onnx/OnnxExport.h"
#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>


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
  const std::string key = signature.key();
  if (const std::vector<OpSignature> parts = timedAs(signature); parts.size() != 1 || parts[0].key() != key)
    return std::all_of(parts.begin(), parts.end(), [&](const OpSignature& part) { return canMeasure(part); });
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

double OrtProfiler::timeModelMs(const std::string& path) {
  const std::string scratch = worker_.scratch().string();
  nlohmann::json reply = worker_.request({{"cmd", "profile"}, {"model", path}, {"warmup", 1}, {"runs", 1}, {"out_dir", scratch}});
  const bool slow = reply.at("ms").at(0).get<double>() > kSlowMs;
  reply = worker_.request({{"cmd", "profile"}, {"model", path}, {"warmup", slow ? kSlowWarmup : kWarmup}, {"runs", slow ? kSlowRuns : kRuns},
                           {"out_dir", scratch}});
  worker_.request({{"cmd", "unload"}, {"model", path}});
  // The fastest run, not the median: other processes only ever add time to a run, and on a shared
  // machine a median of sub-millisecond runs often measures them instead of the op.
  const std::vector<double> ms = reply.at("ms").get<std::vector<double>>();
  return std::max(*std::min_element(ms.begin(), ms.end()), kFloorMs);
}

double OrtProfiler::measureMs(const OpSignature& signature) {
  if (!canMeasure(signature)) throw Error("measured:ort cannot time " + signature.key());
  if (const std::vector<OpSignature> parts = timedAs(signature); parts.size() != 1 || parts[0].key() != signature.key()) {
    double ms = 0;
    for (const OpSignature& part : parts) ms += measureMs(part);
    return ms;
  }
  auto it = loaded_.find(signature.key());
  const std::string path = it->second;
  loaded_.erase(it); // measured once; the cost cache remembers the result
  double ms;
  try {
    ms = timeModelMs(path);
  } catch (const Error& e) {
    std::filesystem::remove(path);
    throw Error("ONNX Runtime failed while timing " + signature.key() + ": " + e.what());
  }
  std::filesystem::remove(path);
  return ms;
}

} // namespace tessera::ort
