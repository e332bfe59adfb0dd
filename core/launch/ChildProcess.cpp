// fork and exec with a process group per child, so that killing a shard kills what it started.
#include "launch/ChildProcess.h"

#include "support/Error.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tessera::launch {

namespace {

ChildExit exitFromStatus(int status) {
  ChildExit exit;
  if (WIFSIGNALED(status)) exit.signal = WTERMSIG(status);
  if (WIFEXITED(status)) exit.exitCode = WEXITSTATUS(status);
  return exit;
}

// This process's environment with `overrides` (NAME=VALUE) set, built before fork: between fork
// and exec the child may only make async-signal-safe calls.
std::vector<std::string> environmentWith(const std::vector<std::string>& overrides) {
  std::map<std::string, std::string> byName;
  for (char** entry = environ; *entry; ++entry) {
    const std::string text = *entry;
    byName[text.substr(0, text.find('='))] = text;
  }
  for (const std::string& text : overrides) byName[text.substr(0, text.find('='))] = text;
  std::vector<std::string> result;
  for (auto& [name, text] : byName) result.push_back(std::move(text));
  return result;
}

std::vector<char*> nullTerminated(const std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (const std::string& s : strings) pointers.push_back(const_cast<char*>(s.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

[[noreturn]] void execInChild(char* const* argv, char* const* envp, int outputFd, pid_t parent) {
  ::setpgid(0, 0);
  // A group of its own keeps a terminal's Ctrl-C from the child: it goes when its parent goes instead.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) ::_exit(128 + SIGTERM);
  ::dup2(outputFd, STDOUT_FILENO);
  ::dup2(outputFd, STDERR_FILENO);
  ::close(outputFd);
  const int devNull = ::open("/dev/null", O_RDONLY);
  if (devNull >= 0) ::dup2(devNull, STDIN_FILENO);
  ::execvpe(argv[0], argv, envp);
  static const char message[] = "cannot exec the command\n";
  (void)!::write(STDERR_FILENO, message, sizeof message - 1);
  ::_exit(127);
}

pid_t forkExec(const std::vector<std::string>& argv, const std::vector<std::string>& env, int outputFd) {
  if (argv.empty()) throw Error("cannot start an empty command");
  if (findOnPath(argv[0]).empty()) throw Error("cannot start '" + argv[0] + "': not found on PATH");
  const std::vector<std::string> environment = environmentWith(env);
  const std::vector<char*> argp = nullTerminated(argv), envp = nullTerminated(environment);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(std::string("cannot start '") + argv[0] + "': " + std::strerror(errno));
  if (pid == 0) execInChild(argp.data(), envp.data(), outputFd, parent);
  ::setpgid(pid, pid); // also here, so that a kill right after fork reaches the group
  return pid;
}

} // namespace

std::string ChildExit::describe(double timeoutSeconds) const {
  if (timedOut) return "no answer within " + std::to_string(static_cast<int>(timeoutSeconds)) + " s";
  if (signal != 0) return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(exitCode);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env, const std::string& logPath) {
  const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw errorInFile(logPath, std::string("cannot open the shard's log: ") + std::strerror(errno));
  try {
    pid_ = forkExec(argv, env, fd);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
}

ChildProcess::ChildProcess(ChildProcess&& other) noexcept : pid_(other.pid_) { other.pid_ = -1; }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this == &other) return *this;
  stop();
  pid_ = other.pid_;
  other.pid_ = -1;
  return *this;
}

ChildProcess::~ChildProcess() { stop(); }

void ChildProcess::stop() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

std::optional<ChildExit> ChildProcess::poll() {
  if (pid_ <= 0) return std::nullopt;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) != pid_) return std::nullopt;
  pid_ = -1;
  return exitFromStatus(status);
}

CapturedRun runCaptured(const std::vector<std::string>& argv, double timeoutSeconds) {
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC) != 0) throw Error(std::string("cannot create a pipe: ") + std::strerror(errno));
  pid_t pid = -1;
  try {
    pid = forkExec(argv, {}, pipeFds[1]);
  } catch (...) {
    ::close(pipeFds[0]);
    ::close(pipeFds[1]);
    throw;
  }
  ::close(pipeFds[1]);

  CapturedRun run;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
  char buffer[4096];
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      run.exit.timedOut = true;
      break;
    }
    pollfd entry{pipeFds[0], POLLIN, 0};
    if (::poll(&entry, 1, static_cast<int>(left)) <= 0) continue;
    const ssize_t n = ::read(pipeFds[0], buffer, sizeof buffer);
    if (n <= 0) break; // end of output: the command has (nearly) ended
    run.output.append(buffer, static_cast<size_t>(n));
  }
  ::close(pipeFds[0]);
  // Its output closed; it may still linger (or have left a child holding nothing): wait to the deadline.
  int status = 0;
  while (!run.exit.timedOut && ::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      run.exit.timedOut = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (run.exit.timedOut) {
    ::kill(-pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    return run;
  }
  run.exit = exitFromStatus(status);
  return run;
}

std::string findOnPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0 ? program : std::string();
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > begin ? dirs.substr(begin, end - begin) : ".";
    const std::string candidate = dir + "/" + program;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    begin = end + 1;
  }
  return {};
}

} // namespace tessera::launch
