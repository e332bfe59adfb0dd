#include "TunedKernels.h"

#include "CpuDevice.h"

#include "support/Error.h"
#include "tune/SignatureWorkload.h"
#include "tune/TunedKernel.h"
#include "tune/Tuner.h"
#include "tune/TuningDatabase.h"

#include <cstdio>
#include <filesystem>

namespace tessera::cpu {

TunedKernels::TunedKernels(const std::string& databasePath, const std::vector<std::string>& targets, Warning warn,
                           tune::BuildOptions build)
    : path_(databasePath), warn_(std::move(warn)), buildOptions_(std::move(build)) {
  if (!warn_) warn_ = [](const std::string& message) { std::fprintf(stderr, "tessera: %s\n", message.c_str()); };
  std::error_code ec;
  if (path_ != ":memory:" && !std::filesystem::exists(path_, ec)) return;
  std::string identity;
  try {
    database_ = std::make_unique<tune::TuningDatabase>(path_);
    for (const std::string& target : targets)
      for (tune::TuningRecord& record : database_->bestRecords(target)) records_.try_emplace(record.workload, std::move(record));
    for (const auto& [workload, record] : records_) identity += workload + "=" + record.hash + "\n";
  } catch (const Error& e) {
    warn_(std::string("no tuned kernels: ") + e.what());
    database_.reset();
    records_.clear();
    return;
  }
  if (!records_.empty()) fingerprint_ = tune::contentHash(identity).substr(0, 8);
}

TunedKernels::~TunedKernels() = default;

std::shared_ptr<TunedKernels> TunedKernels::openDefault() {
  const int threads = cpuThreads();
  return std::make_shared<TunedKernels>(tune::defaultTuningDatabasePath(),
                                        std::vector<std::string>{tune::cpuTarget(threads, true), tune::cpuTarget(threads)});
}

const tune::TuningRecord* TunedKernels::recordFor(const OpSignature& signature) const {
  if (records_.empty()) return nullptr;
  const std::optional<tune::Workload> workload = tune::tunableWorkload(signature);
  if (!workload) return nullptr;
  auto it = records_.find(workload->key());
  return it == records_.end() ? nullptr : &it->second;
}

const tune::TunedKernel* TunedKernels::load(const tune::TuningRecord& record) {
  auto [it, inserted] = loaded_.try_emplace(record.workload);
  if (!inserted) return it->second.get();
  try {
    if (!builder_) builder_ = tune::makeCpuBuilder(buildOptions_);
    it->second = tune::TunedKernel::load(record, *builder_);
  } catch (const Error& e) {
    warn_(std::string("skipped a tuned kernel (oneDNN runs the op instead): ") + e.what());
  }
  return it->second.get();
}

const tune::TunedKernel* TunedKernels::kernelFor(const OpSignature& signature) {
  std::lock_guard lock(mutex_);
  const tune::TuningRecord* record = recordFor(signature);
  return record ? load(*record) : nullptr;
}

void TunedKernels::recordChoice(const OpSignature& signature, const tune::TunedKernel& kernel, double tunedMs, double libraryMs) {
  std::lock_guard lock(mutex_);
  const tune::TuningRecord* record = recordFor(signature); // the kernel's: kept under its target
  if (!database_ || !record) return;
  try {
    database_->storeChoice({record->target, signature.key(), kernel.hash(), tunedMs, libraryMs});
  } catch (const Error& e) {
    warn_(std::string("could not record which kernel is faster: ") + e.what());
  }
}

const tune::TunedKernel* TunedKernels::chosenKernel(const OpSignature& signature) {
  std::lock_guard lock(mutex_);
  const tune::TuningRecord* record = recordFor(signature);
  if (!record) return nullptr;
  std::optional<tune::KernelChoice> choice;
  try {
    choice = database_->choice(record->target, signature.key(), record->hash);
  } catch (const Error& e) {
    warn_(std::string("could not read which kernel is faster: ") + e.what());
  }
  if (!choice || !choice->tunedFaster()) return nullptr;
  return load(*record);
}

std::string deviceKeyWithTunedKernels(const std::string& deviceKey, const TunedKernels* tuned) {
  if (!tuned || tuned->count() == 0) return deviceKey;
  const std::string part = ", " + std::to_string(tuned->count()) + (tuned->count() == 1 ? " tuned kernel " : " tuned kernels ") +
                           tuned->fingerprint();
  const size_t close = deviceKey.rfind(')');
  if (close == std::string::npos) return deviceKey + " (" + part.substr(2) + ")";
  return deviceKey.substr(0, close) + part + deviceKey.substr(close);
}

} // namespace tessera::cpu
