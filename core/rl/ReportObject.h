// Reading a training report's JSON, shared by the readers of its charts (rl/TrainingReport.h,
// rl/RealStepCurve.h, rl/StrengthCurve.h). Internal to core/rl: the views see only the results.
#pragma once

#include "rl/TrainingReport.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace tessera {

// Reads the report at `path` as a JSON object, fills `run` from it and hands the object to `read`;
// every problem is thrown as a tessera::Error naming `path` (readReportFile).
void readReportObject(const std::string& path, ReportRun& run, const std::function<void(const nlohmann::json& report)>& read);

// `entry`'s finite number `key`; throws naming `where` when it has none.
double finiteNumber(const nlohmann::json& entry, const char* key, const std::string& where);
// `entry`'s string `key`, or "" when it has none; throws naming the key when it is something else.
std::string optionalString(const nlohmann::json& entry, const char* key);
// The report's non-empty list `key`; throws saying `hint` (how to get one) when it has none.
const nlohmann::json& listNamed(const nlohmann::json& report, const char* key, const std::string& hint);

} // namespace tessera
