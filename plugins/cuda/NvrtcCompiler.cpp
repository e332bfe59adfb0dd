#include "NvrtcCompiler.h"

#include "support/Error.h"

#include <nvrtc.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace tessera::cuda {

namespace {

// The first lines of NVRTC's log: enough to see the error, short enough for a record.
std::string firstLines(const std::string& text, int lines) {
  size_t end = 0;
  for (int i = 0; i < lines; ++i) {
    end = text.find('\n', end);
    if (end == std::string::npos) return text;
    ++end;
  }
  return text.substr(0, end) + "...";
}

struct Program {
  nvrtcProgram handle = nullptr;
  ~Program() {
    if (handle) (void)nvrtcDestroyProgram(&handle);
  }
};

} // namespace

std::string nvrtcVersionName() {
  int major = 0, minor = 0;
  if (::nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "NVRTC (unknown version)";
  return "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

PtxCompilation compileToPtx(const std::string& source, int computeCapability) {
  PtxCompilation result;
  Program program;
  if (nvrtcResult status = nvrtcCreateProgram(&program.handle, source.c_str(), "tessera_kernel.cu", 0, nullptr, nullptr);
      status != NVRTC_SUCCESS) {
    result.error = std::string("nvrtcCreateProgram: ") + nvrtcGetErrorString(status);
    return result;
  }
  const std::string arch = "--gpu-architecture=compute_" + std::to_string(computeCapability);
  const char* options[] = {arch.c_str(), "--std=c++17"};
  const nvrtcResult compiled = nvrtcCompileProgram(program.handle, 2, options);
  size_t logSize = 0;
  std::string log;
  if (nvrtcGetProgramLogSize(program.handle, &logSize) == NVRTC_SUCCESS && logSize > 1) {
    log.resize(logSize);
    if (nvrtcGetProgramLog(program.handle, log.data()) != NVRTC_SUCCESS) log.clear();
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  }
  if (compiled != NVRTC_SUCCESS) {
    result.error = "NVRTC (compute_" + std::to_string(computeCapability) + "): " + nvrtcGetErrorString(compiled) +
                   (log.empty() ? std::string() : "\n" + firstLines(log, 20));
    return result;
  }
  size_t ptxSize = 0;
  if (nvrtcResult status = nvrtcGetPTXSize(program.handle, &ptxSize); status != NVRTC_SUCCESS || ptxSize < 2) {
    result.error = std::string("nvrtcGetPTXSize: ") + nvrtcGetErrorString(status);
    return result;
  }
  result.ptx.resize(ptxSize);
  if (nvrtcResult status = nvrtcGetPTX(program.handle, result.ptx.data()); status != NVRTC_SUCCESS) {
    result.ptx.clear();
    result.error = std::string("nvrtcGetPTX: ") + nvrtcGetErrorString(status);
    return result;
  }
  result.ptx.pop_back(); // the terminating NUL
  return result;
}

NvrtcBuilder::NvrtcBuilder(int computeCapability, std::string cacheDir, int jobs)
    : computeCapability_(computeCapability), cacheDir_(cacheDir.empty() ? tune::defaultCacheDir() : std::move(cacheDir)),
      jobs_(jobs > 0 ? jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) {}

tune::BuildResult NvrtcBuilder::buildOne(const std::string& source) const {
  const auto start = std::chrono::steady_clock::now();
  tune::BuildResult result;
  const std::string salt = "\n// " + nvrtcVersionName() + " compute_" + std::to_string(computeCapability_);
  const std::filesystem::path ptxFile = std::filesystem::path(cacheDir_) / (tune::contentHash(source + salt) + ".ptx");
  std::error_code ec;
  if (std::filesystem::exists(ptxFile, ec)) {
    result.library = ptxFile.string();
    result.cached = true;
  } else if (PtxCompilation compiled = compileToPtx(source, computeCapability_); !compiled.ok()) {
    result.error = compiled.error;
  } else {
    // Written aside and renamed, so a concurrent run never reads half a file.
    const std::filesystem::path partial = ptxFile.string() + ".partial." + std::to_string(::getpid());
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << compiled.ptx;
    out.close();
    std::filesystem::rename(partial, ptxFile, ec);
    if (!out || ec) result.error = "cannot write " + ptxFile.string();
    else result.library = ptxFile.string();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<tune::BuildResult> NvrtcBuilder::build(const std::vector<tune::BuildInput>& inputs) {
  std::vector<tune::BuildResult> results(inputs.size());
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < inputs.size(); i = next++) results[i] = buildOne(inputs[i].source);
  };
  std::vector<std::thread> workers;
  for (int j = 1; j < std::min<int>(jobs_, static_cast<int>(inputs.size())); ++j) workers.emplace_back(work);
  work();
  for (std::thread& worker : workers) worker.join();
  return results;
}

} // namespace tessera::cuda
