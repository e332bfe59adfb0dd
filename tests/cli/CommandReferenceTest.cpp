// The command reference (resources/doc/command-reference.md) and the program cannot drift apart:
// every command that `tessera-cli --help` lists, sub-commands included, has a section there, and
// each section names exactly the options that command's --help lists.
#include "CliRunner.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kReferencePath = TESSERA_SOURCE_DIR "/resources/doc/command-reference.md";

struct CommandHelp {
  std::set<std::string> options;         // long names, --help left out
  std::vector<std::string> subcommands;  // names, in the order --help lists them
};

std::string firstWord(const std::string& line) {
  std::istringstream in(line);
  std::string word;
  in >> word;
  return word;
}

// CLI11's help: sections headed "Options:", "Subcommands:", ...; an entry starts two spaces in,
// its description (and any wrapped lines) further in. An option entry's first word holds its names
// ("-h,--help", "--no-pin{false}"); what follows it ("Excludes: --input") names other options.
CommandHelp parseCli11Help(const std::string& help) {
  CommandHelp parsed;
  std::istringstream in(help);
  std::string line, section;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != ' ') {
      section = line;
      continue;
    }
    if (line.size() < 3 || line.compare(0, 2, "  ") != 0 || line[2] == ' ') continue;
    const std::string word = firstWord(line);
    if (section == "Subcommands:") {
      parsed.subcommands.push_back(word);
      continue;
    }
    if (section != "Options:") continue;
    std::istringstream names(word.substr(0, word.find('{')));
    std::string name;
    while (std::getline(names, name, ','))
      if (name.rfind("--", 0) == 0 && name != "--help") parsed.options.insert(name);
  }
  return parsed;
}

// The reference page: a section "## `tessera-cli COMMAND…`" per command, each with a table whose
// first column names the options ("| `--json FILE` | …"). Other columns may mention any option.
std::map<std::string, std::set<std::string>> parseReference(const std::string& markdown) {
  std::map<std::string, std::set<std::string>> sections;
  const std::regex heading(R"(^## `tessera-cli ([a-z -]+)`\s*$)");
  const std::regex option(R"(--[A-Za-z0-9][A-Za-z0-9-]*)");
  std::istringstream in(markdown);
  std::string line;
  std::set<std::string>* current = nullptr;
  while (std::getline(in, line)) {
    std::smatch match;
    if (std::regex_match(line, match, heading)) {
      current = &sections[match[1].str()];
      continue;
    }
    if (line.rfind("## ", 0) == 0) current = nullptr; // a section of something else (the explorer)
    if (!current || line.rfind("| ", 0) != 0) continue;
    const std::string firstCell = line.substr(2, line.find(" | ", 2) - 2);
    for (std::sregex_iterator it(firstCell.begin(), firstCell.end(), option), end; it != end; ++it)
      current->insert(it->str());
  }
  return sections;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Every command reachable from `tessera-cli --help`, by its words ("costs profile"), with its help.
void collectCommands(const std::string& command, std::map<std::string, CommandHelp>& commands) {
  const tessera::test::CliResult result = tessera::test::runCli(command + (command.empty() ? "" : " ") + "--help");
  ASSERT_EQ(result.exitCode, 0) << "tessera-cli " << command << " --help\n" << result.output;
  CommandHelp help = parseCli11Help(result.output);
  for (const std::string& sub : help.subcommands) collectCommands(command.empty() ? sub : command + " " + sub, commands);
  if (!command.empty()) commands[command] = std::move(help);
}

} // namespace

TEST(CommandReference, ReadsCli11HelpAndTheReferencePage) {
  const CommandHelp help = parseCli11Help("Usage: tessera-cli run [OPTIONS] model\n\n"
                                          "Positionals:\n  model TEXT REQUIRED         ONNX model\n\n"
                                          "Options:\n  -h,--help                   Print this help message and exit\n"
                                          "  --dummy-input Excludes: --input\n"
                                          "                              Feed arange(n)/n --not-an-option\n"
                                          "  --input TEXT ... Excludes: --dummy-input\n"
                                          "  --no-pin{false}             Do not pin\n\n"
                                          "Subcommands:\n  check                       Verify\n");
  EXPECT_EQ(help.options, (std::set<std::string>{"--dummy-input", "--input", "--no-pin"}));
  EXPECT_EQ(help.subcommands, (std::vector<std::string>{"check"}));

  const auto sections = parseReference("## `tessera-cli run`\n\n| option | what |\n|---|---|\n"
                                       "| `MODEL` | see `--dim` |\n| `--input NAME=FILE.pb` | not with `--dummy-input` |\n"
                                       "## `tessera-cli rules check`\n| `--json FILE` | x |\n"
                                       "## The explorer, `tessera`\n| `--view VIEW` | y |\n");
  ASSERT_EQ(sections.size(), 2u);
  EXPECT_EQ(sections.at("run"), (std::set<std::string>{"--input"}));
  EXPECT_EQ(sections.at("rules check"), (std::set<std::string>{"--json"}));
}

TEST(CommandReference, EveryOptionOfEveryCommandIsDocumented) {
  const std::string markdown = readFile(kReferencePath);
  ASSERT_FALSE(markdown.empty()) << "cannot read " << kReferencePath;
  const auto documented = parseReference(markdown);

  std::map<std::string, CommandHelp> commands;
  collectCommands("", commands);
  ASSERT_GE(commands.size(), 10u) << "tessera-cli --help lists its commands";

  for (const auto& [command, help] : commands) {
    auto section = documented.find(command);
    if (section == documented.end()) {
      ADD_FAILURE() << "`tessera-cli " << command << "` has no section \"## `tessera-cli " << command << "`\" in "
                    << kReferencePath;
      continue;
    }
    for (const std::string& option : help.options)
      EXPECT_TRUE(section->second.count(option))
          << "`tessera-cli " << command << " " << option << "` is in its --help but not in the first column of its section in "
          << kReferencePath << ": add a row for it";
    for (const std::string& option : section->second)
      EXPECT_TRUE(help.options.count(option))
          << kReferencePath << " documents `tessera-cli " << command << " " << option
          << "`, which its --help does not list: remove or rename the row";
  }
  for (const auto& [command, options] : documented)
    EXPECT_TRUE(commands.count(command)) << kReferencePath << " has a section for `tessera-cli " << command
                                         << "`, which tessera-cli --help does not list";
}
