// A tuned kernel as code this process calls: a tuning record's trace replayed on its workload,
// lowered again to the language it was measured in (LLVM IR or C), built as a shared object
// (through the builder, whose cache is keyed by the source, so the tuner's build is reused) and
// loaded with dlopen.
#pragma once

#include "tune/Builder.h"
#include "tune/TuningDatabase.h"
#include "tune/Workload.h"

#include <memory>
#include <optional>
#include <span>
#include <string>

namespace tessera::tune {

// A record refined below its trace (SIP, core/sip) carries its kernel as machine code in the
// trace's "machine_code" member: {"language": "asm", "source": TEXT, "openmp": BOOL, "refines":
// BASE_HASH, ...provenance}; its hash is contentHash(TEXT). The trace still replays, to the kernel
// it refines.
struct MachineCode {
  std::string source;
  bool openmp = false; // it calls OpenMP's runtime (linked with -fopenmp)
};
std::string traceWithMachineCode(const std::string& traceJson, const MachineCode& code, const std::string& refinedHash,
                                 const std::string& provenanceJson);
// The machine code of a refined record's trace; nullopt for a plain trace. Throws tessera::Error
// for a "machine_code" member that is not as above.
std::optional<MachineCode> machineCodeOf(const std::string& traceJson);

class TunedKernel {
public:
  // A refined record builds its machine code (machineCodeOf), which must hash to the record's.
  // Throws tessera::Error naming the record's workload and what failed: a malformed trace or one
  // that does not replay, a regenerated kernel that is not the one the record measured (another
  // structural hash: the code generator changed since), a failed build, dlopen or dlsym.
  static std::unique_ptr<TunedKernel> load(const TuningRecord& record, Builder& builder);
  ~TunedKernel();
  TunedKernel(const TunedKernel&) = delete;
  TunedKernel& operator=(const TunedKernel&) = delete;

  // inputs: dense row-major float32 buffers in the workload's order (lhs, rhs[, bias]); out: its
  // output. The kernel writes every element of out.
  void run(std::span<const float* const> inputs, float* out) const;

  const Workload& workload() const { return workload_; }
  const std::string& hash() const { return hash_; }
  const std::string& library() const { return library_; }

private:
  using Function = void (*)(const float* const*, float*);
  TunedKernel() = default;

  Workload workload_;
  size_t inputs_ = 0;
  std::string hash_;
  std::string library_;
  void* handle_ = nullptr;
  Function function_ = nullptr;
};

} // namespace tessera::tune
