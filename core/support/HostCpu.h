// The host CPU as device keys and tuning targets name it: timings belong to one kind of CPU.
#pragma once

#include <string>

namespace tessera {

// /proc/cpuinfo's model name with its family, model and stepping, e.g. "AMD EPYC, family 26 model 2
// stepping 1": a virtual machine may name several CPU generations alike ("AMD EPYC"), and a cost
// table or tuned kernel timed on one must not be taken for another's. "unknown CPU" where
// /proc/cpuinfo says nothing.
std::string hostCpuName();

} // namespace tessera
