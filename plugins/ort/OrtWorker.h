// One ONNX Runtime worker process (ort_worker.js under Node.js) and the line-delimited JSON
// conversation with it. The worker keeps loaded sessions between requests; a worker that dies,
// hangs or answers with an error becomes a tessera::Error quoting what it said.
#pragma once

#include "OrtInstall.h"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <string>
#include <sys/types.h>

namespace tessera::ort {

class OrtWorker {
public:
  // Starts the worker; throws tessera::Error when `install` is unusable or the worker cannot start.
  explicit OrtWorker(const OrtInstall& install);
  ~OrtWorker();
  OrtWorker(const OrtWorker&) = delete;
  OrtWorker& operator=(const OrtWorker&) = delete;

  // Sends one request and returns the reply without its "ok". Throws tessera::Error with the
  // worker's message for a failed request, or with its stderr when it died or timed out.
  nlohmann::json request(const nlohmann::json& request, double timeoutSeconds = 600);

  // A private folder for model and tensor files, removed with the worker.
  const std::filesystem::path& scratch() const { return scratch_; }
  // "1.30.0", from the worker's first reply.
  const std::string& version() const { return version_; }
  int threads() const { return threads_; }
  // False once the worker died or was stopped after a failure; every request then throws.
  bool running() const { return socket_ >= 0; }

private:
  [[noreturn]] void fail(const std::string& what);
  void stop();

  std::filesystem::path scratch_;
  pid_t pid_ = -1;
  int socket_ = -1;
  std::string pending_; // bytes read past the last reply
  std::string version_;
  int threads_ = 1;
};

} // namespace tessera::ort
