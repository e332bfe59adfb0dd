// What a loaded backend plugin gives a program: `measured:<backend>` cost models (the backend's
// profiler behind the cost cache, with the backend's own roofline for ops it cannot time) and
// whole-graph executors. The CLI and the GUI both build theirs here and resolve cost specs with
// core's resolveCostSpec (run/CostResolution.h), which says what an unusable backend falls back to.
#pragma once

#include "PluginHost.h"

#include "cost/CostModel.h"
#include "cost/GraphExecutor.h"

#include <functional>
#include <memory>
#include <string>

namespace tessera::plugins {

using CostWarning = std::function<void(const std::string&)>;

// `backend` is the name after "measured:" ("cpu", "cuda"). Measurements go to the default cost
// cache (defaultCostCachePath()); without one every signature is measured once per process, said
// through `warn`, which also hears once if the device fails mid-run, and once that a CPU backend
// measures on a busy machine (those timings stay out of the cache). `progress` hears how a long first measuring goes (MeasuredCostModel::setProgress).
// Throws tessera::Error saying why the backend cannot be used (not found, failed to load, device
// unavailable, failed to start).
std::unique_ptr<CostModel> makeMeasuredCostModel(PluginHost& host, const std::string& backend, const CostWarning& warn,
                                                 const CostWarning& progress = {});

// The backend's whole-graph executor. Throws tessera::Error "no <backend> executor: <why>".
std::unique_ptr<GraphExecutor> makeBackendExecutor(PluginHost& host, const std::string& backend);

} // namespace tessera::plugins
