#include "rewrite/StopReason.h"

namespace tessera {

std::string_view stopReasonName(StopReason reason) {
  switch (reason) {
  case StopReason::Saturated: return "saturated";
  case StopReason::NodeLimit: return "node_limit";
  case StopReason::IterationLimit: return "iteration_limit";
  case StopReason::TimeLimit: return "time_limit";
  case StopReason::StoppedByUser: return "stopped_by_user";
  case StopReason::Budget: return "budget";
  case StopReason::StepLimit: return "steps";
  }
  return "unknown";
}

std::optional<StopReason> parseStopReason(std::string_view name) {
  for (StopReason reason : {StopReason::Saturated, StopReason::NodeLimit, StopReason::IterationLimit, StopReason::TimeLimit,
                            StopReason::StoppedByUser, StopReason::Budget, StopReason::StepLimit})
    if (stopReasonName(reason) == name) return reason;
  return std::nullopt;
}

} // namespace tessera
