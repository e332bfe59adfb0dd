// The thread count to tune CPU kernels for: the CPU executor's (OMP_NUM_THREADS, else what the
// machine's load leaves), since the executor runs a tuned kernel only on the thread count it was
// tuned for. 2 in a build without the CPU plugin.
#pragma once

namespace tessera::tuning {

int executorThreads();

} // namespace tessera::tuning
