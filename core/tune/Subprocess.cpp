// posix_spawn with output to a file, polled with waitpid and killed, with its descendants, at a
// deadline.
#include "tune/Subprocess.h"

#include "support/Error.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace tessera::tune {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
  pid_t pid = -1;
  size_t index = 0;
  Clock::time_point start;
};

std::vector<std::string> environmentWith(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    std::string entry = *e;
    bool replaced = false;
    for (const std::string& x : extra)
      replaced = replaced || entry.compare(0, x.find('=') + 1, x, 0, x.find('=') + 1) == 0;
    if (!replaced) env.push_back(std::move(entry));
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

pid_t start(const Command& command) {
  std::vector<std::string> argv = command.argv, env = environmentWith(command.env);
  std::vector<char*> argp = pointers(argv), envp = pointers(env);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, command.outputFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // A process group of its own, so that a timeout kills what the child started too: the compiler
  // driver's cc1 would otherwise run on, orphaned, competing with the next builds and timings.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = -1;
  int error = posix_spawnp(&pid, argp[0], &actions, &attributes, argp.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw Error("cannot start '" + command.argv[0] + "': " + std::strerror(error));
  return pid;
}

std::string readAndRemove(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  ::unlink(path.c_str());
  return text.str();
}

} // namespace

std::string ProcessResult::describe() const {
  if (timedOut) return "timed out after " + std::to_string(static_cast<int>(seconds)) + " s";
  if (signal != 0) return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit status " + std::to_string(exitCode);
}

std::vector<ProcessResult> runCommands(const std::vector<Command>& commands, int jobs, double timeoutSeconds) {
  std::vector<ProcessResult> results(commands.size());
  std::vector<Running> running;
  size_t next = 0;
  const auto timeout = std::chrono::duration<double>(timeoutSeconds);
  while (next < commands.size() || !running.empty()) {
    while (next < commands.size() && static_cast<int>(running.size()) < std::max(jobs, 1)) {
      running.push_back({start(commands[next]), next, Clock::now()});
      ++next;
    }
    bool progressed = false;
    for (size_t r = 0; r < running.size();) {
      Running& child = running[r];
      ProcessResult& result = results[child.index];
      int status = 0;
      pid_t done = ::waitpid(child.pid, &status, WNOHANG);
      const double elapsed = std::chrono::duration<double>(Clock::now() - child.start).count();
      if (done == 0 && Clock::now() - child.start < timeout) {
        ++r;
        continue;
      }
      if (done == 0) {
        ::kill(-child.pid, SIGKILL); // the whole group (start())
        ::waitpid(child.pid, &status, 0);
        result.timedOut = true;
      } else if (WIFSIGNALED(status)) {
        result.signal = WTERMSIG(status);
      } else if (WIFEXITED(status)) {
        result.exitCode = WEXITSTATUS(status);
      }
      result.seconds = elapsed;
      result.output = readAndRemove(commands[child.index].outputFile);
      running.erase(running.begin() + static_cast<long>(r));
      progressed = true;
    }
    if (!progressed && !running.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return results;
}

} // namespace tessera::tune
