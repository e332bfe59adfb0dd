// The README stays the newcomer's first screen or two (issue #36): at most 200 lines, the two
// set-up commands that .ci/run and people copy, unchanged, and links that lead somewhere.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace {

std::vector<std::string> readmeLines() {
  std::ifstream in(TESSERA_SOURCE_DIR "/README.md");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The first line of the ```sh block after `marker`, as .ci/run reads it.
std::string commandAfter(const std::vector<std::string>& lines, const std::string& marker) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i] != marker) continue;
    for (size_t j = i + 1; j + 1 < lines.size(); ++j)
      if (lines[j].rfind("```sh", 0) == 0) return lines[j + 1];
  }
  return {};
}

} // namespace

TEST(Readme, FitsTwoHundredLinesAndKeepsTheSetUpCommands) {
  const std::vector<std::string> lines = readmeLines();
  ASSERT_FALSE(lines.empty());
  EXPECT_LE(lines.size(), 200u) << "README.md has " << lines.size()
                                << " lines; move detail to a page of resources/doc and link it";
  const std::string build = "./.ci/install-deps.sh && cmake --preset default && cmake --build --preset default && ";
  EXPECT_EQ(commandAfter(lines, "<!-- main-command -->"), build + "./build/bin/tessera samples/nasrnn.onnx --run mcts --view mcts");
  EXPECT_EQ(commandAfter(lines, "<!-- test-command -->"), build + "ctest --preset default");
}

TEST(Readme, LinksLeadToFilesOfTheRepository) {
  const std::regex link(R"(\]\(([^)#]+)(#[^)]*)?\))");
  int checked = 0;
  for (const std::string& line : readmeLines())
    for (std::sregex_iterator it(line.begin(), line.end(), link), end; it != end; ++it) {
      const std::string target = (*it)[1].str();
      if (target.rfind("http", 0) == 0) continue;
      ++checked;
      EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(TESSERA_SOURCE_DIR) / target))
          << "README.md links to " << target << ", which does not exist";
    }
  EXPECT_GT(checked, 10) << "the README links to the guide";
}
