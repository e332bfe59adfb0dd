#include "CliRunner.h"

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::test {

CliResult runCli(const std::string& arguments) { return runShell(std::string(TESSERA_CLI) + " " + arguments); }

CliResult runShell(const std::string& commandLine) {
  const std::string command = commandLine + " 2>&1";
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer{};
  size_t n = 0;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) result.output.append(buffer.data(), n);
  int status = pclose(pipe);
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

std::string makeTempDir(const std::string& tag) {
  static std::atomic<int> counter{0};
  auto dir = std::filesystem::temp_directory_path() /
             ("tessera-" + tag + "-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

nlohmann::json readJson(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

void expectCleanError(const CliResult& result, const std::string& mentions) {
  EXPECT_EQ(result.exitCode, 1) << result.output;
  EXPECT_NE(result.output.find("error"), std::string::npos) << result.output;
  EXPECT_NE(result.output.find(mentions), std::string::npos) << result.output;
}

} // namespace tessera::test
