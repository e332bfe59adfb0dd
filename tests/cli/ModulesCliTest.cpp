// tessera-cli starts without libtorch and LLVM (issue #36): neither is linked into the program,
// the everyday commands load neither, and a command that needs a module that is not there says
// which module, where it looked, and fails cleanly.
#include "CliRunner.h"

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using tessera::test::CliResult;
using tessera::test::expectCleanError;
using tessera::test::makeTempDir;
using tessera::test::runShell;

namespace {

const std::string kSamples = TESSERA_SOURCE_DIR "/samples";

// The libraries a start-up must not pay for, as the loader names their files.
constexpr std::array<const char*, 4> kHeavyLibraries{"libtorch", "libc10", "libLLVM", "libtessera_agents"};

std::string heavyLibraryIn(const std::string& text) {
  for (const char* library : kHeavyLibraries)
    if (text.find(library) != std::string::npos) return library;
  return {};
}

TEST(CliModules, TheProgramLinksNeitherLibtorchNorLlvm) {
  const CliResult ldd = runShell("ldd " TESSERA_CLI);
  ASSERT_EQ(ldd.exitCode, 0) << ldd.output;
  ASSERT_NE(ldd.output.find("libc.so"), std::string::npos) << ldd.output; // ldd did list the libraries
  EXPECT_EQ(heavyLibraryIn(ldd.output), "") << ldd.output;
}

// LD_DEBUG=files names every library the loader maps, at start and by dlopen later.
TEST(CliModules, EverydayCommandsLoadNeitherLibrary) {
  const std::string dir = makeTempDir("modules-everyday");
  const std::string model = kSamples + "/squeezenet.onnx";
  const std::string optimized = dir + "/opt.onnx";
  const std::vector<std::string> commands{
      "--version",
      "info " + kSamples + "/bert.onnx",
      "run " + model + " --dummy-input --output-dir " + dir + "/run",
      "rules list",
      "optimize " + model + " --strategy greedy --time-limit 5 --out " + optimized,
      "optimize " + model + " --strategy eqsat --time-limit 5",
      "optimize " + model + " --strategy mcts --time-limit 5",
      "verify " + model + " " + optimized + " --trials 1",
  };
  for (const std::string& command : commands) {
    const CliResult result = runShell("LD_DEBUG=files " TESSERA_CLI " " + command);
    EXPECT_EQ(result.exitCode, 0) << command << "\n" << result.output.substr(0, 4000);
    EXPECT_NE(result.output.find("calling init"), std::string::npos) << command; // LD_DEBUG was honoured
    EXPECT_EQ(heavyLibraryIn(result.output), "") << command;
  }
}

// Where the modules are there, their commands are the real ones, and an agent's strategy runs.
TEST(CliModules, ModuleCommandsComeFromTheirModules) {
#if TESSERA_AGENTS_MODULE
  const CliResult rl = tessera::test::runCli("rl --help");
  EXPECT_NE(rl.output.find("train"), std::string::npos) << rl.output;
  EXPECT_NE(rl.output.find("world-model"), std::string::npos) << rl.output;
  const CliResult xrlflow = tessera::test::runCli("optimize " + kSamples + "/squeezenet.onnx --strategy xrlflow --param max_steps=2");
  EXPECT_EQ(xrlflow.exitCode, 0) << xrlflow.output;
#endif
#if TESSERA_AGENTS_PUCT
  // MCTS is the program's; its learned prior loads the agents module.
  const CliResult prior = tessera::test::runCli("optimize " + kSamples + "/squeezenet.onnx --strategy mcts --time-limit 3 --param prior=" +
                                                TESSERA_SOURCE_DIR "/resources/agents/puct.ckpt");
  EXPECT_EQ(prior.exitCode, 0) << prior.output;
#endif
#if TESSERA_SIP_MODULE
  const CliResult sip = tessera::test::runCli("sip --help");
  EXPECT_NE(sip.output.find("--legality"), std::string::npos) << sip.output;
#endif
#if TESSERA_AGENTS_MODULE
  // `plugins` lists the modules it would load, by name and file.
  const std::string dir = makeTempDir("modules-plugins");
  ASSERT_EQ(tessera::test::runCli("plugins --json " + dir + "/plugins.json").exitCode, 0);
  const nlohmann::json report = tessera::test::readJson(dir + "/plugins.json");
  bool agents = false;
  for (const auto& module : report["modules"])
    agents = agents || (module["name"] == "agents" && fs::exists(module["file"].get<std::string>()));
  EXPECT_TRUE(agents);
  fs::remove_all(dir);
#endif
}

// The program alone in a folder with an empty plugins folder beside it: no module to be found.
class LonelyCli : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = makeTempDir("modules-lonely");
    fs::create_directories(dir_ + "/plugins");
    program_ = dir_ + "/tessera-cli";
    std::error_code ec;
    fs::create_hard_link(TESSERA_CLI, program_, ec);
    if (ec) fs::copy_file(TESSERA_CLI, program_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  CliResult run(const std::string& arguments) { return runShell("env -u TESSERA_PLUGIN_PATH " + program_ + " " + arguments); }
  std::string dir_, program_;
};

TEST_F(LonelyCli, AnAgentsCommandNamesTheMissingModuleAndWhereItLooked) {
  const CliResult train = run("rl train --agent xrlflow --models " + kSamples + "/vgg19.onnx --episodes 1 --out " + dir_ + "/a.ckpt");
  expectCleanError(train, "needs the agents module (libtorch)");
  EXPECT_NE(train.output.find("libtessera_agents.so"), std::string::npos) << train.output;
  EXPECT_NE(train.output.find(dir_ + "/plugins/modules"), std::string::npos) << train.output;
  EXPECT_FALSE(fs::exists(dir_ + "/a.ckpt"));

  const CliResult optimize = run("optimize " + kSamples + "/vgg19.onnx --strategy xrlflow");
  expectCleanError(optimize, "strategy 'xrlflow' needs the agents module (libtorch)");
}

TEST_F(LonelyCli, CommandsWithoutModulesStillRun) {
  const CliResult plugins = run("plugins");
  EXPECT_EQ(plugins.exitCode, 0) << plugins.output;
  EXPECT_NE(plugins.output.find("modules (loaded when a command needs one):\n  (none found)"), std::string::npos) << plugins.output;
  const CliResult info = run("info " + kSamples + "/bert.onnx");
  EXPECT_EQ(info.exitCode, 0) << info.output;
  const CliResult help = run("--help");
  EXPECT_EQ(help.exitCode, 0) << help.output;
  EXPECT_NE(help.output.find("  rl "), std::string::npos) << help.output; // still listed
  const CliResult optimizeHelp = run("optimize --help");
  EXPECT_NE(optimizeHelp.output.find("xrlflow"), std::string::npos) << optimizeHelp.output;
}

} // namespace
