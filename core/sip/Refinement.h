// SIP's results in the tuning database: the record SIP starts from, and a winning kernel stored as
// a refinement of it (tune::traceWithMachineCode), which measured:cpu and the CPU executor load
// as they load any tuned kernel (tune::TunedKernel).
#pragma once

#include "sip/Moves.h"
#include "sip/Sip.h"

#include "tune/TuningDatabase.h"

#include <optional>
#include <string>

namespace tessera::sip {

inline constexpr const char* kRefinementSearch = "sip"; // TuningRecord::search of a refinement

// The fastest verified record of the workload on the target that SIP did not write.
std::optional<tune::TuningRecord> baseRecord(const tune::TuningDatabase& database, const std::string& workload, const std::string& target);

// The record of run's best kernel, refining `base`. Its latency is the base record's scaled by the
// interleaved timing's ratio (best / tuned medians), so it ranks against the records timed when
// the workload was tuned rather than against the machine's load during this run; runMs are the
// best kernel's own interleaved times.
tune::TuningRecord refinementRecord(const tune::TuningRecord& base, const SipRun& run, uint64_t seed, Legality legality);

} // namespace tessera::sip
