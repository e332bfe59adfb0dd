// The explorer's run options on the command line: parsed like the CLI's, refused with a message
// when malformed, and laid over the run panel's settings only where given.
#include "CommandLine.h"

#include <gtest/gtest.h>

namespace tessera::gui {
namespace {

TEST(CommandLine, RunOptionsAreTheClis) {
  CommandLine given = parseCommandLine({"tessera", "m.onnx", "--run", "eqsat", "--node-limit", "50000", "--k-multi", "3", "--param",
                                        "tensat=1", "--param", "rebase=0"});
  ASSERT_TRUE(given.error.isEmpty()) << given.error.toStdString();
  ASSERT_TRUE(given.nodeLimit.has_value());
  EXPECT_EQ(*given.nodeLimit, 50000u);
  ASSERT_TRUE(given.multiIterations.has_value());
  EXPECT_EQ(*given.multiIterations, 3);
  EXPECT_EQ(given.parameters, (std::map<std::string, std::string>{{"tensat", "1"}, {"rebase", "0"}}));

  RunSettings settings;
  settings.search.iterationLimit = 7;
  settings.search.parameters = {{"rebase", "1"}, {"simulations", "64"}};
  applyRunOptions(given, settings);
  EXPECT_EQ(settings.search.nodeLimit, 50000u);
  EXPECT_EQ(settings.search.multiIterations, 3);
  EXPECT_EQ(settings.search.iterationLimit, 7) << "what the command line does not give stays the panel's";
  EXPECT_EQ(settings.search.parameters, (std::map<std::string, std::string>{{"rebase", "0"}, {"simulations", "64"}, {"tensat", "1"}}));

  RunSettings untouched;
  untouched.search.nodeLimit = 123;
  applyRunOptions(parseCommandLine({"tessera"}), untouched);
  EXPECT_EQ(untouched.search.nodeLimit, 123u);
}

TEST(CommandLine, MalformedRunOptionsAreRefusedWithTheirName) {
  EXPECT_TRUE(parseCommandLine({"tessera", "--node-limit", "many"}).error.contains("--node-limit"));
  EXPECT_TRUE(parseCommandLine({"tessera", "--k-multi", "-1"}).error.contains("--k-multi"));
  EXPECT_TRUE(parseCommandLine({"tessera", "--param", "novalue"}).error.contains("--param"));
}

TEST(CommandLine, TuningOptions) {
  CommandLine given = parseCommandLine({"tessera", "--view", "tuning", "--tuning-db", "t.db", "--tune", "matmul:64x64x64", "--trials", "8"});
  ASSERT_TRUE(given.error.isEmpty()) << given.error.toStdString();
  EXPECT_EQ(given.view, "tuning");
  EXPECT_TRUE(given.viewGiven);
  EXPECT_EQ(given.tuningDatabase, "t.db");
  EXPECT_EQ(given.tuneWorkload, "matmul:64x64x64");
  EXPECT_EQ(given.tuneTrials, 8);
  EXPECT_FALSE(parseCommandLine({"tessera", "--tune", "matmul:8x8x8"}).viewGiven);
  EXPECT_TRUE(parseCommandLine({"tessera", "--trials", "0"}).error.contains("--trials"));
  EXPECT_TRUE(parseCommandLine({"tessera", "--trials", "some"}).error.contains("--trials"));
}

} // namespace
} // namespace tessera::gui
