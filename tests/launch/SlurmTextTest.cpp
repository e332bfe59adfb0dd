// The Slurm launcher's text: --array specs, squeue and scontrol output, and the array script, run
// here by sh as a Slurm task would run it.
#include "ShardsForTests.h"

#include "launch/ChildProcess.h"
#include "launch/LaunchState.h"
#include "launch/SlurmClient.h"
#include "launch/SlurmScript.h"
#include "launch/WorkDir.h"
#include "support/Error.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace tessera::launch {
namespace {

TEST(SlurmText, ArraySpecJoinsRunsAndAddsTheLimit) {
  EXPECT_EQ(arraySpec({0, 1, 2, 5, 7, 8}, 2), "0-2,5,7-8%2");
  EXPECT_EQ(arraySpec({4}, 0), "4");
}

TEST(SlurmText, ParsesSqueueLinesOneTaskEach) {
  const std::vector<QueuedTask> tasks = parseQueue("12|3|RUNNING|node7|None\n12|4|PENDING||JobArrayTaskLimit\n13|[5-9%2]|PENDING||Priority\n");
  ASSERT_EQ(tasks.size(), 2u);
  EXPECT_EQ(tasks[0].arrayJobId, "12");
  EXPECT_EQ(tasks[0].taskId, 3u);
  EXPECT_EQ(tasks[0].node, "node7");
  EXPECT_EQ(tasks[1].state, "PENDING");
  EXPECT_EQ(tasks[1].reason, "JobArrayTaskLimit");
}

TEST(SlurmText, ReadsFieldsOfAnScontrolRecord) {
  const std::string line = "JobId=14 ArrayJobId=12 ArrayTaskId=3 JobState=CANCELLED Reason=None ExitCode=0:15 NodeList=vm";
  EXPECT_EQ(recordField(line, "JobState"), "CANCELLED");
  EXPECT_EQ(recordField(line, "JobId"), "14"); // not ArrayJobId's value
  EXPECT_EQ(recordField(line, "ExitCode"), "0:15");
  EXPECT_FALSE(recordField(line, "Partition"));
}

TEST(SlurmText, LaunchStateRoundTripsAndAMalformedOneNamesItsFile) {
  char pattern[] = "/tmp/tessera-state-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string path = std::string(pattern) + "/launch.json";
  LaunchState state{fingerprintOf("abc"), {"12", "15"}, {{true, 1, "vm"}, {false, 0, ""}}};
  writeLaunchState(path, state);
  const LaunchState back = readLaunchState(path);
  EXPECT_EQ(back.fingerprint, state.fingerprint);
  EXPECT_EQ(back.jobs, state.jobs);
  ASSERT_EQ(back.shards.size(), 2u);
  EXPECT_TRUE(back.shards[0].submitted);
  EXPECT_EQ(back.shards[0].retries, 1);
  EXPECT_EQ(back.shards[0].node, "vm");
  std::ofstream(path) << "{\"fingerprint\": 3";
  std::string message;
  try {
    readLaunchState(path);
  } catch (const Error& e) {
    message = e.what();
  }
  EXPECT_NE(message.find(path + ": not a launch state file"), std::string::npos) << message;
  std::filesystem::remove_all(pattern);
}

// The script as array task `task` runs it.
CapturedRun runTask(const std::string& script, size_t task) {
  return runCaptured({"env", "SLURM_ARRAY_TASK_ID=" + std::to_string(task), "SLURM_ARRAY_JOB_ID=99", "SLURMD_NODENAME=here", "sh", script}, 30);
}

TEST(SlurmText, ArrayScriptRunsItsShardWritesAtomicallyAndSkipsWhatIsDone) {
  char pattern[] = "/tmp/tessera-script-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  std::vector<Shard> shards = testing::countedShards(dir, 2);
  // Quotes, spaces and the placeholder inside a word survive the shell.
  shards[1].argv = {"sh", "-c", "printf '%s|%s' \"$0\" \"$QUOTED\" > \"${1#out=}\"", "it's a b", "out={output}"};
  shards[1].env = {"QUOTED=x 'y' $z"};
  const std::string script = dir + "/array.sh";
  writeFileAtomically(script, slurmArrayScript(shards));

  EXPECT_TRUE(runTask(script, 0).exit.succeeded());
  EXPECT_EQ(testing::readText(shards[0].output), "row 0");
  const CapturedRun again = runTask(script, 0);
  EXPECT_NE(again.output.find("already done"), std::string::npos);
  EXPECT_EQ(testing::runsOf(dir, 0), 1);

  const CapturedRun second = runTask(script, 1);
  EXPECT_TRUE(second.exit.succeeded()) << second.output;
  EXPECT_EQ(testing::readText(shards[1].output), "it's a b|x 'y' $z");
  EXPECT_FALSE(runTask(script, 2).exit.succeeded());
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".part-"), std::string::npos) << entry.path();
  std::filesystem::remove_all(dir);
}

TEST(SlurmText, AFailingShardLeavesNoResult) {
  char pattern[] = "/tmp/tessera-script-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  const std::vector<Shard> shards{testing::countedShard(dir, 0, 0, "printf partial > \"$1\"; exit 4")};
  writeFileAtomically(dir + "/array.sh", slurmArrayScript(shards));
  const CapturedRun run = runTask(dir + "/array.sh", 0);
  EXPECT_EQ(run.exit.exitCode, 4);
  EXPECT_FALSE(std::filesystem::exists(shards[0].output));
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().string().find(".part-"), std::string::npos) << entry.path();
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace tessera::launch
