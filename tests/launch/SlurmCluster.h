// A one-node Slurm cluster on localhost for tests: munged, slurmctld and slurmd started in a
// temporary directory of their own (slurm.conf, state, spool, a munge key, two placeholder GPUs as
// GRES) and stopped by PID. Client commands in this process use it through SLURM_CONF.
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace tessera::testing {

class SlurmCluster {
public:
  // Empty when a cluster can be started here; otherwise why not (Slurm or munge not installed, or
  // not root, which slurmd needs to run jobs as the submitting user).
  static std::string whyUnavailable();

  // Starts the daemons and waits until the node is idle; throws std::runtime_error with the logs'
  // tails when they do not come up.
  SlurmCluster();
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  const std::string& directory() const { return dir_; }
  const std::string& node() const { return node_; }
  const std::string& confPath() const { return conf_; }
  // A scratch directory inside the cluster's, for a test's work dir and outputs.
  std::string scratch(const std::string& name) const;
  // Runs a client command (scontrol, scancel, …) and returns its output; throws when it fails.
  std::string command(const std::vector<std::string>& argv) const;

private:
  void stopAll();
  std::string dir_, node_, conf_, previousConf_;
  bool hadConf_ = false;
  std::vector<pid_t> daemons_; // started in this order, stopped in reverse
};

} // namespace tessera::testing
