// How one measured candidate ended: the outcome a tuning record stores (never fatal to the tuner).
#pragma once

#include <optional>
#include <string_view>

namespace tessera::tune {

enum class TrialStatus { Ok, CompileError, WrongResult, Crashed, Timeout, RuntimeError };

inline const char* statusName(TrialStatus status) {
  switch (status) {
  case TrialStatus::Ok: return "ok";
  case TrialStatus::CompileError: return "compile_error";
  case TrialStatus::WrongResult: return "wrong_result";
  case TrialStatus::Crashed: return "crashed";
  case TrialStatus::Timeout: return "timeout";
  case TrialStatus::RuntimeError: return "runtime_error";
  }
  return "?";
}

inline std::optional<TrialStatus> statusFromName(std::string_view name) {
  for (TrialStatus s : {TrialStatus::Ok, TrialStatus::CompileError, TrialStatus::WrongResult, TrialStatus::Crashed,
                        TrialStatus::Timeout, TrialStatus::RuntimeError})
    if (name == statusName(s)) return s;
  return std::nullopt;
}

} // namespace tessera::tune
