#include "ExecutorThreads.h"

#if TESSERA_HAVE_DNNL
#include "CpuDevice.h"
#endif

namespace tessera::tuning {

#if TESSERA_HAVE_DNNL
int executorThreads() { return cpu::cpuThreads(); }
#else
int executorThreads() { return 2; }
#endif

} // namespace tessera::tuning
