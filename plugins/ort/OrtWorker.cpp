#include "OrtWorker.h"

#include "support/Error.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tessera::ort {

namespace {

std::filesystem::path makeScratch() {
  std::string pattern = (std::filesystem::temp_directory_path() / "tessera-ort-XXXXXX").string();
  if (!mkdtemp(pattern.data())) throw Error(std::string("ONNX Runtime worker: cannot make a scratch folder: ") + std::strerror(errno));
  return pattern;
}

std::string lastLines(const std::filesystem::path& file, size_t maxChars = 600) {
  std::ifstream in(file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.size() > maxChars) text = "..." + text.substr(text.size() - maxChars);
  return text;
}

} // namespace

OrtWorker::OrtWorker(const OrtInstall& install) : threads_(install.threads) {
  if (!install.usable()) throw Error("ONNX Runtime is unavailable: " + install.problem);
  scratch_ = makeScratch();
  std::array<int, 2> ends{};
  // A socket rather than pipes: send() with MSG_NOSIGNAL reports a dead worker as an error
  // instead of killing the host with SIGPIPE.
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends.data()) != 0) {
    std::filesystem::remove_all(scratch_);
    throw Error(std::string("ONNX Runtime worker: socketpair failed: ") + std::strerror(errno));
  }
  socket_ = ends[0];

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO);
  const std::string stderrFile = (scratch_ / "worker.stderr").string();
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);

  std::vector<std::string> env;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, "ORT_THREADS=", 12) != 0 && std::strncmp(*e, "ORT_CLOCK=", 10) != 0) env.emplace_back(*e);
  env.push_back("ORT_THREADS=" + std::to_string(install.threads));
  env.push_back(std::string("ORT_CLOCK=") + (install.cpuClock ? "cpu" : "wall"));
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string node = install.node, script = install.script, prefix = install.prefix;
  std::array<char*, 4> argv{node.data(), script.data(), prefix.data(), nullptr};

  const int spawned = posix_spawn(&pid_, node.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(ends[1]);
  if (spawned != 0) {
    pid_ = -1;
    stop();
    throw Error("ONNX Runtime worker: cannot start " + node + ": " + std::strerror(spawned));
  }
  try {
    version_ = request({{"cmd", "info"}}, 60).value("version", "");
  } catch (const Error&) {
    stop(); // no destructor runs after a throwing constructor
    throw;
  }
}

OrtWorker::~OrtWorker() { stop(); }

void OrtWorker::stop() {
  if (socket_ >= 0) close(socket_); // the worker reads end of input and exits
  socket_ = -1;
  if (pid_ > 0) {
    for (int i = 0; i < 50; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        break;
      }
      usleep(10000);
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  pid_ = -1;
  std::error_code ec;
  if (!scratch_.empty()) std::filesystem::remove_all(scratch_, ec);
}

void OrtWorker::fail(const std::string& what) {
  std::string message = "ONNX Runtime worker " + what;
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  if (std::string said = lastLines(scratch_ / "worker.stderr"); !said.empty()) message += "; it said: " + said;
  close(socket_);
  socket_ = -1;
  throw Error(message);
}

nlohmann::json OrtWorker::request(const nlohmann::json& request, double timeoutSeconds) {
  if (socket_ < 0) throw Error("ONNX Runtime worker has stopped after an earlier failure");
  const std::string line = request.dump() + "\n";
  for (size_t sent = 0; sent < line.size();) {
    const ssize_t n = send(socket_, line.data() + sent, line.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(std::string("stopped taking requests (") + std::strerror(errno) + ")");
    sent += static_cast<size_t>(n);
  }

  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeoutSeconds);
  size_t end;
  while ((end = pending_.find('\n')) == std::string::npos) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) fail("gave no answer within " + std::to_string(static_cast<int>(timeoutSeconds)) + " s to " + request.value("cmd", "?"));
    pollfd poll_fd{socket_, POLLIN, 0};
    const int ready = poll(&poll_fd, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (ready < 0 && errno != EINTR) fail(std::string("cannot be read (") + std::strerror(errno) + ")");
    if (ready <= 0) continue;
    char buffer[65536];
    const ssize_t n = read(socket_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("exited");
    pending_.append(buffer, static_cast<size_t>(n));
  }
  const std::string replyLine = pending_.substr(0, end);
  pending_.erase(0, end + 1);

  nlohmann::json reply = nlohmann::json::parse(replyLine, nullptr, false);
  if (reply.is_discarded() || !reply.is_object()) fail("answered something that is not JSON: " + replyLine.substr(0, 200));
  if (!reply.value("ok", false)) throw Error(reply.value("error", std::string("request failed without a message")));
  reply.erase("ok");
  return reply;
}

} // namespace tessera::ort
