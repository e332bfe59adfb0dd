// `tessera-cli extract` as a user meets it: every method on the real VGG e-graph with its JSON
// report, and one clear error line with exit code 1 for bad files and options.
#include "CliRunner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <fstream>

using namespace tessera::test;

namespace {

const std::string kVgg = std::string(TESSERA_SHARED_DIR) + "/reference/extraction-gym/vgg_acyclic.json";

std::string tempPath(const std::string& name) {
  static const std::string dir = makeTempDir("extract-cli");
  return dir + "/" + name;
}

} // namespace

TEST(ExtractCli, EveryMethodReportsAValidDagCostOnVgg) {
  std::map<std::string, double> cost;
  for (std::string method : {"tree", "ocf", "dag", "ilp"}) {
    std::string report = tempPath(method + ".json");
    CliResult run = runCli("extract " + kVgg + " --method " + method + " --time-limit 60 --json " + report);
    ASSERT_EQ(run.exitCode, 0) << run.output;
    EXPECT_NE(run.output.find("dag cost"), std::string::npos) << run.output;
    nlohmann::json json = readJson(report);
    EXPECT_EQ(json["method"], method);
    EXPECT_GE(json["seconds"].get<double>(), 0);
    EXPECT_EQ(json["enodes"], 112);
    EXPECT_EQ(json["eclasses"], 96);
    EXPECT_TRUE(json["optimal"].is_boolean());
    EXPECT_EQ(json["choice"]["95"].is_string(), true) << "the root class must be chosen";
    cost[method] = json["dag_cost"].get<double>();
    if (method == "ilp") {
      EXPECT_TRUE(json["optimal"].get<bool>());
      EXPECT_NE(run.output.find("optimal    yes"), std::string::npos) << run.output;
    }
  }
  // The full model (no presolve) must agree with the reduced one.
  std::string report = tempPath("ilp-full.json");
  CliResult full = runCli("extract " + kVgg + " --method ilp --no-presolve --json " + report);
  ASSERT_EQ(full.exitCode, 0) << full.output;
  nlohmann::json json = readJson(report);
  EXPECT_EQ(json["presolve"], false);
  EXPECT_TRUE(json["optimal"].get<bool>());
  EXPECT_NEAR(json["dag_cost"].get<double>(), cost["ilp"], 1e-12);

  EXPECT_LE(cost["ilp"], cost["dag"] + 1e-12);
  EXPECT_LE(cost["dag"], cost["tree"] + 1e-12);
  EXPECT_LE(cost["ilp"], cost["ocf"] + 1e-12);
}

TEST(ExtractCli, BadFileIsOneErrorLineNamingIt) {
  std::string path = tempPath("broken.json");
  std::ofstream(path) << R"({"nodes": {"a": {"op": "f", "cost": 1, "eclass": "A", "children": ["ghost"]}}, "root_eclasses": ["A"]})";
  CliResult run = runCli("extract " + path);
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("error: " + path + ": node \"a\" has child \"ghost\""), std::string::npos) << run.output;

  CliResult missing = runCli("extract " + tempPath("missing.json"));
  EXPECT_EQ(missing.exitCode, 1) << missing.output;
  EXPECT_NE(missing.output.find("missing.json"), std::string::npos) << missing.output;
}

TEST(ExtractCli, RejectsAnUnknownMethodAndANegativeTimeLimit) {
  EXPECT_NE(runCli("extract " + kVgg + " --method magic").exitCode, 0);
  EXPECT_NE(runCli("extract " + kVgg + " --method ilp --time-limit -1").exitCode, 0);
}
