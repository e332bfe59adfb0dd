// The daemons run in the foreground (-F, -D) as children of the test, so their PIDs are known and
// nothing outlives it: munged as the munge user, then slurmctld, then slurmd, as root.
#include "SlurmCluster.h"

#include "launch/ChildProcess.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::testing {

namespace fs = std::filesystem;
using launch::findOnPath;
using launch::runCaptured;

namespace {

// Daemons live in /usr/sbin, which a user's PATH may lack.
std::string daemonPath(const std::string& name) {
  std::string found = findOnPath(name);
  if (found.empty() && ::access(("/usr/sbin/" + name).c_str(), X_OK) == 0) found = "/usr/sbin/" + name;
  return found;
}

int freePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
    throw std::runtime_error("cannot find a free port");
  ::close(fd);
  return ntohs(address.sin_port);
}

std::string tail(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string all = text.str();
  return "\n--- " + path + " ---\n" + (all.size() > 1500 ? all.substr(all.size() - 1500) : all);
}

// Starts `argv` with its output in `log`, as `user` when given.
pid_t startDaemon(const std::vector<std::string>& argv, const std::string& log, const passwd* user) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid > 0) return pid;
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
  }
  ::setpgid(0, 0);
  if (user && (::setgroups(0, nullptr) != 0 || ::setgid(user->pw_gid) != 0 || ::setuid(user->pw_uid) != 0)) ::_exit(126);
  ::execv(args[0], args.data());
  ::_exit(127);
}

// Waits up to 40 s for `ready`; the error carries the tails of the daemons' logs.
template <typename Ready>
void waitFor(Ready ready, const std::string& what, const std::vector<std::string>& logs) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(40);
  while (!ready()) {
    if (std::chrono::steady_clock::now() > deadline) {
      std::string tails;
      for (const std::string& log : logs) tails += tail(log);
      throw std::runtime_error("the test cluster's " + what + " did not come up" + tails);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

} // namespace

std::string SlurmCluster::whyUnavailable() {
  for (const char* program : {"munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "scancel"})
    if (daemonPath(program).empty()) return std::string(program) + " is not installed (apt-get install slurm-wlm munge)";
  if (!::getpwnam("munge")) return "there is no munge user (install Debian's munge package)";
  if (::geteuid() != 0) return "a local Slurm cluster's slurmd runs as root, and this test does not";
  return {};
}

SlurmCluster::SlurmCluster() {
  char pattern[] = "/tmp/tessera-slurm-XXXXXX";
  if (!::mkdtemp(pattern)) throw std::runtime_error("cannot create a temporary directory");
  dir_ = pattern;
  ::chmod(dir_.c_str(), 0755);
  const passwd* munge = ::getpwnam("munge");
  for (const char* sub : {"munge", "munge-key", "state", "spool", "log", "scratch"}) fs::create_directories(dir_ + "/" + sub);
  // munged wants its key readable by it alone and its socket's directory searchable by everyone.
  const std::string key = dir_ + "/munge-key/munge.key";
  {
    std::ifstream random("/dev/urandom", std::ios::binary);
    std::string bytes(1024, '\0');
    random.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    std::ofstream(key, std::ios::binary) << bytes;
  }
  for (const std::string& path : {dir_ + "/munge", dir_ + "/munge-key", key})
    if (::chown(path.c_str(), munge->pw_uid, munge->pw_gid) != 0) throw std::runtime_error("cannot chown " + path);
  ::chmod((dir_ + "/munge-key").c_str(), 0700);
  ::chmod(key.c_str(), 0400);
  // Placeholder GPUs: GRES files must be character devices, so they point at /dev/null.
  for (const char* gpu : {"gpu0", "gpu1"}) fs::create_symlink("/dev/null", dir_ + "/" + gpu);

  const launch::CapturedRun probe = runCaptured({daemonPath("slurmd"), "-C"}, 30);
  const std::string nodeLine = probe.output.substr(0, probe.output.find('\n'));
  if (nodeLine.rfind("NodeName=", 0) != 0) throw std::runtime_error("slurmd -C printed no NodeName line: " + probe.output);
  node_ = nodeLine.substr(9, nodeLine.find(' ') - 9);
  const std::string socket = dir_ + "/munge/munge.sock";

  conf_ = dir_ + "/slurm.conf";
  std::ofstream conf(conf_);
  conf << "ClusterName=tessera-test\n"
       << "SlurmctldHost=" << node_ << "(127.0.0.1)\n"
       << "SlurmctldPort=" << freePort() << "\nSlurmdPort=" << freePort() << "\n"
       << "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket=" << socket << "\n"
       << "SlurmUser=root\nSlurmdUser=root\n"
       << "StateSaveLocation=" << dir_ << "/state\nSlurmdSpoolDir=" << dir_ << "/spool\n"
       << "SlurmctldPidFile=" << dir_ << "/slurmctld.pid\nSlurmdPidFile=" << dir_ << "/slurmd.pid\n"
       << "SlurmctldLogFile=" << dir_ << "/log/slurmctld.log\nSlurmdLogFile=" << dir_ << "/log/slurmd.log\n"
       << "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n"
       << "ReturnToService=2\nJobRequeue=1\nMpiDefault=none\nGresTypes=gpu\nMinJobAge=300\n"
       << "SchedulerParameters=sched_interval=1\n"
       << nodeLine << " Gres=gpu:2 NodeAddr=127.0.0.1 State=UNKNOWN\n"
       // A node that never answers, only in partition "wide": a partition reaching beyond this host.
       << "NodeName=tessera-ghost CPUs=1 State=FUTURE\n"
       << "PartitionName=debug Nodes=" << node_ << " Default=YES MaxTime=INFINITE State=UP\n"
       << "PartitionName=wide Nodes=" << node_ << ",tessera-ghost MaxTime=INFINITE State=UP\n";
  conf.close();
  std::ofstream(dir_ + "/gres.conf") << "NodeName=" << node_ << " Name=gpu File=" << dir_ << "/gpu[0-1]\n";

  if (const char* previous = std::getenv("SLURM_CONF")) {
    hadConf_ = true;
    previousConf_ = previous;
  }
  ::setenv("SLURM_CONF", conf_.c_str(), 1);
  try {
    daemons_.push_back(startDaemon({daemonPath("munged"), "-F", "--socket=" + socket, "--key-file=" + key,
                                    "--pid-file=" + dir_ + "/munge/munged.pid", "--log-file=" + dir_ + "/munge/munged.log",
                                    "--seed-file=" + dir_ + "/munge/munged.seed"},
                                   dir_ + "/log/munged.out", munge));
    waitFor([&] { return fs::exists(socket); }, "munged", {dir_ + "/log/munged.out"});
    daemons_.push_back(startDaemon({daemonPath("slurmctld"), "-D", "-c", "-f", conf_}, dir_ + "/log/slurmctld.out", nullptr));
    waitFor([&] { return runCaptured({"scontrol", "ping"}, 10).output.find("is UP") != std::string::npos; }, "slurmctld",
            {dir_ + "/log/slurmctld.out"});
    daemons_.push_back(startDaemon({daemonPath("slurmd"), "-D", "-f", conf_}, dir_ + "/log/slurmd.out", nullptr));
    waitFor([&] { return runCaptured({"sinfo", "-h", "-n", node_, "-o", "%T"}, 10).output.find("idle") != std::string::npos; },
            "slurmd", {dir_ + "/log/slurmd.out", dir_ + "/log/slurmctld.out"});
  } catch (...) {
    stopAll();
    throw;
  }
}

SlurmCluster::~SlurmCluster() { stopAll(); }

void SlurmCluster::stopAll() {
  // Jobs first, so that no slurmstepd outlives the daemons.
  if (daemons_.size() == 3) runCaptured({"scancel", "--full", "--user=root"}, 10);
  for (auto pid = daemons_.rbegin(); pid != daemons_.rend(); ++pid) {
    ::kill(*pid, SIGTERM);
    int status = 0;
    bool ended = false;
    for (int i = 0; i < 100 && !ended; ++i) {
      ended = ::waitpid(*pid, &status, WNOHANG) == *pid;
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (!ended) {
      ::kill(-*pid, SIGKILL);
      ::kill(*pid, SIGKILL);
      ::waitpid(*pid, &status, 0);
    }
  }
  daemons_.clear();
  if (hadConf_)
    ::setenv("SLURM_CONF", previousConf_.c_str(), 1);
  else
    ::unsetenv("SLURM_CONF");
  std::error_code ec;
  if (!dir_.empty()) fs::remove_all(dir_, ec);
}

std::string SlurmCluster::scratch(const std::string& name) const {
  const std::string path = dir_ + "/scratch/" + name;
  fs::create_directories(path);
  return path;
}

std::string SlurmCluster::command(const std::vector<std::string>& argv) const {
  const launch::CapturedRun run = runCaptured(argv, 30);
  if (!run.exit.succeeded()) throw std::runtime_error(argv[0] + " failed: " + run.output);
  return run.output;
}

} // namespace tessera::testing
