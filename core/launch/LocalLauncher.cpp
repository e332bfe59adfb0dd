// The local launcher: shards as child processes of this one, at most maxParallel at a time. Each
// writes a temporary file that is renamed to its output when it exits 0; a failed one is run again
// up to `retries` times.
#include "launch/ChildProcess.h"
#include "launch/LaunchState.h"
#include "launch/Launcher.h"
#include "launch/SlurmScript.h"
#include "launch/WorkDir.h"

#include "support/Error.h"

#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <optional>
#include <thread>

#include <unistd.h>

namespace tessera::launch {

namespace {

using Clock = std::chrono::steady_clock;

std::string hostName() {
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  return name;
}

class LocalLauncher final : public Launcher {
public:
  explicit LocalLauncher(LaunchOptions options) : options_(std::move(options)) {}

  std::string name() const override { return "local"; }

  void check() override {
    workDir_.emplace(options_.workDir);
    if (options_.retries < 0) throw Error("--retries must be at least 0");
  }

  LaunchResult run(const std::vector<Shard>& shards, const ProgressCallback& onProgress) override {
    if (!workDir_) check();
    requireSameLaunch(shards);
    const auto start = Clock::now();
    const std::string host = hostName();
    const long cpus = ::sysconf(_SC_NPROCESSORS_ONLN);
    const size_t slots = static_cast<size_t>(options_.maxParallel > 0 ? options_.maxParallel : std::max(1L, cpus));

    LaunchResult result;
    std::deque<size_t> queue;
    for (size_t i = 0; i < shards.size(); ++i) {
      ShardProgress progress{i, shards[i].name, ShardState::Waiting, {}, 0, {}};
      if (fileExists(shards[i].output)) {
        progress.state = ShardState::Done;
        progress.note = "already done (" + shards[i].output + ")";
      } else {
        queue.push_back(i);
      }
      result.shards.push_back(progress);
      if (onProgress) onProgress(progress);
    }

    struct Running {
      size_t index;
      std::string partial;
      ChildProcess process;
    };
    std::vector<Running> running;
    while (!queue.empty() || !running.empty()) {
      while (!queue.empty() && running.size() < slots) {
        const size_t index = queue.front();
        queue.pop_front();
        ShardProgress& progress = result.shards[index];
        const std::string partial =
            shards[index].output + ".part-local-" + std::to_string(::getpid()) + "-" + std::to_string(progress.retries);
        std::remove(partial.c_str());
        const std::string log = workDir_->shardLog(index);
        std::ofstream(log, std::ios::app) << "== tessera shard " << index << " (" << shards[index].name << ") on " << host
                                          << ", attempt " << progress.retries + 1 << "\n";
        running.push_back({index, partial, ChildProcess(argvWritingTo(shards[index], partial), shards[index].env, log)});
        progress.state = ShardState::Running;
        progress.node = host;
        if (onProgress) onProgress(progress);
      }
      bool ended = false;
      for (size_t r = 0; r < running.size();) {
        std::optional<ChildExit> exit = running[r].process.poll();
        if (!exit) {
          ++r;
          continue;
        }
        ended = true;
        finish(shards, result.shards[running[r].index], running[r].partial, *exit, queue);
        if (onProgress) onProgress(result.shards[running[r].index]);
        running.erase(running.begin() + static_cast<long>(r));
      }
      if (!ended) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  }

private:
  // A work directory serves one launch: outputs found there are only this launch's results when its
  // shards (commands and outputs) are the same as the ones that made them.
  void requireSameLaunch(const std::vector<Shard>& shards) const {
    const std::string path = workDir_->file("local-launch.fingerprint");
    const std::string fingerprint = fingerprintOf(slurmArrayScript(shards));
    std::ifstream in(path);
    std::string stored;
    if (in >> stored && stored != fingerprint)
      throw errorInFile(workDir_->path(), "the work directory holds another launch (other shards or commands); give this one its own --work-dir");
    if (stored.empty()) writeFileAtomically(path, fingerprint + "\n");
  }

  // Publishes a successful shard's result, or queues it again while it has retries left.
  void finish(const std::vector<Shard>& shards, ShardProgress& progress, const std::string& partial, const ChildExit& exit,
              std::deque<size_t>& queue) {
    const Shard& shard = shards[progress.index];
    std::string why;
    if (!exit.succeeded())
      why = exit.describe();
    else if (!fileExists(partial))
      why = "exited 0 without writing its result";
    else if (std::rename(partial.c_str(), shard.output.c_str()) != 0)
      why = "cannot rename its result to " + shard.output;
    if (why.empty()) {
      progress.state = ShardState::Done;
      progress.note.clear();
      return;
    }
    std::remove(partial.c_str());
    const std::string log = workDir_->shardLog(progress.index);
    if (progress.retries < options_.retries) {
      ++progress.retries;
      progress.state = ShardState::Waiting;
      progress.note = why + "; running it again (see " + log + ")";
      queue.push_back(progress.index);
      return;
    }
    progress.state = ShardState::Failed;
    progress.note = why + " (see " + log + ")";
  }

  LaunchOptions options_;
  std::optional<WorkDir> workDir_;
};

} // namespace

std::unique_ptr<Launcher> makeLocalLauncher(const LaunchOptions& options) { return std::make_unique<LocalLauncher>(options); }

} // namespace tessera::launch
