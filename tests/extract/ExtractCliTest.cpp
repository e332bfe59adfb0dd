// `tessera-cli extract` as a user meets it: every method on the real VGG e-graph with its JSON
// report, and one clear error line with exit code 1 for bad files and options.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const std::string kVgg = std::string(TESSERA_SHARED_DIR) + "/reference/extraction-gym/vgg_acyclic.json";

struct CliRun {
  int exitCode = -1;
  std::string output; // stdout and stderr together
};

CliRun runCli(const std::string& arguments) {
  CliRun run;
  FILE* pipe = popen((std::string(TESSERA_CLI) + " " + arguments + " 2>&1").c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.output.append(buffer.data(), n);
  int status = pclose(pipe);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return run;
}

std::string tempPath(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tessera-extract-cli-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

} // namespace

TEST(ExtractCli, EveryMethodReportsAValidDagCostOnVgg) {
  std::map<std::string, double> cost;
  for (std::string method : {"tree", "ocf", "dag", "ilp"}) {
    std::string report = tempPath(method + ".json");
    CliRun run = runCli("extract " + kVgg + " --method " + method + " --time-limit 60 --json " + report);
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
  CliRun full = runCli("extract " + kVgg + " --method ilp --no-presolve --json " + report);
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
  CliRun run = runCli("extract " + path);
  EXPECT_EQ(run.exitCode, 1) << run.output;
  EXPECT_NE(run.output.find("error: " + path + ": node \"a\" has child \"ghost\""), std::string::npos) << run.output;

  CliRun missing = runCli("extract " + tempPath("missing.json"));
  EXPECT_EQ(missing.exitCode, 1) << missing.output;
  EXPECT_NE(missing.output.find("missing.json"), std::string::npos) << missing.output;
}

TEST(ExtractCli, RejectsAnUnknownMethodAndANegativeTimeLimit) {
  EXPECT_NE(runCli("extract " + kVgg + " --method magic").exitCode, 0);
  EXPECT_NE(runCli("extract " + kVgg + " --method ilp --time-limit -1").exitCode, 0);
}
