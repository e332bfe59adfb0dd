// How busy the host is, for the programs that time ops on its CPU: with more runnable threads than
// processors, a timed op waits for the scheduler, and OpenMP's threads spin against each other, so
// a timing can come out a thousand times too long (a 1×1024 × 1024×512 MatMul measured at 31 ms on
// a 2-core machine at load 9). The interpreter drops to one thread then; a measured cost model says
// so and keeps such timings out of the cost cache.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tessera {

struct HostLoad {
  double loadAverage = 0; // runnable threads, averaged over the last minute
  int processors = 1;
  // More runnable threads than processors, with one to spare for the program itself.
  bool busy() const { return loadAverage > processors + 1.0; }
};

// Whether a backend times on the host's processors, which other work may be holding: every CPU
// backend does; CUDA times on its device.
inline bool backendTimesOnTheHost(std::string_view backend) { return backend != "cuda"; }

// A load average to read instead of the system's: a test injects a quiet or a busy machine with it.
inline constexpr const char* kHostLoadVariable = "TESSERA_HOST_LOAD";

// The host's 1-minute load average ($TESSERA_HOST_LOAD's when it holds one) and processor count;
// nullopt where the system does not say. Never throws: a malformed $TESSERA_HOST_LOAD is ignored
// here (the interpreter asks from inside its kernels) and refused by hostLoadOverride.
std::optional<HostLoad> hostLoad();

// $TESSERA_HOST_LOAD's load average; nullopt when it is not set. Throws tessera::Error naming the
// variable and its value when that is not a number of at least 0.
std::optional<double> hostLoadOverride();

// "the machine is busy (load 9.3 on 2 processors): CPU timings taken now are unreliable ..." for a
// busy host; empty otherwise.
std::string busyHostNote(const HostLoad& load);

} // namespace tessera
