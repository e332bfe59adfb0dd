// `tessera-cli rules check [FILE]` and `rules list [FILE]`: every rule verified numerically by
// the interpreter, one line per rule; without FILE, the default pack.
#include "CommandContext.h"
#include "Commands.h"

#include "rewrite/DefaultRules.h"
#include "rewrite/RuleChecker.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <memory>

namespace tessera::cli {

namespace {

struct RulesOptions {
  std::string file;
  std::string json;
  std::vector<std::string> only;
  int cases = 4;
  uint64_t seed = 1;
};

RuleSet loadRules(const std::string& file) { return file.empty() ? defaultRules() : loadRuleFile(file); }

std::string joined(const std::vector<std::string>& items) {
  std::string s;
  for (const std::string& item : items) s += (s.empty() ? "" : ",") + item;
  return s;
}

int runCheck(const RulesOptions& options) {
  RuleSet rules = loadRules(options.file);
  if (!options.only.empty())
    rules.keepIf([&](const Rule& rule) { return std::find(options.only.begin(), options.only.end(), rule.name()) != options.only.end(); });
  RuleCheckOptions checkOptions;
  checkOptions.cases = options.cases;
  checkOptions.seed = options.seed;
  size_t failed = 0;
  nlohmann::json report = nlohmann::json::array();
  checkRules(rules, checkOptions, [&](size_t done, const RuleCheck& check) {
    failed += check.verified ? 0 : 1;
    std::printf("[%3zu/%zu] %-28s %-6s %s\n", done, rules.size(), check.name.c_str(), check.verified ? "ok" : "FAILED",
                check.verified ? ("(" + std::to_string(check.cases) + " shapes)").c_str() : check.problem.c_str());
    std::fflush(stdout);
    report.push_back({{"name", check.name},
                      {"labels", check.labels},
                      {"verified", check.verified},
                      {"cases", check.cases},
                      {"max_abs_err", check.maxAbsError},
                      {"problem", check.problem}});
  });
  std::printf("%zu of %zu rules verified%s\n", rules.size() - failed, rules.size(),
              failed ? "; failed rules are never used" : "");
  if (!options.json.empty()) writeJsonReport(report, options.json);
  return failed == 0 ? 0 : 1;
}

int runList(const RulesOptions& options) {
  RuleSet rules = loadRules(options.file);
  for (const auto& rule : rules.rules())
    std::printf("%-28s [%s] %s\n", rule->name().c_str(), joined(rule->labels()).c_str(), rule->describe().c_str());
  std::printf("%zu rules (%zu multi-pattern)\n", rules.size(), rules.multiCount());
  return 0;
}

} // namespace

void addRulesCommand(CLI::App& app, CommandContext& context) {
  CLI::App* rules = app.add_subcommand("rules", "Inspect and verify rule packs");
  rules->require_subcommand(1);
  auto options = std::make_shared<RulesOptions>();
  CLI::App* check = rules->add_subcommand("check", "Verify every rule numerically with the reference interpreter");
  check->add_option("file", options->file, "Rule file (Tessera pack or TENSAT's converted.txt / converted_multi.txt); default: the built-in pack");
  check->add_option("--json", options->json, "Write [{name, labels, verified, ...}] to this file");
  check->add_option("--rule", options->only, "Only these rules (repeatable)");
  check->add_option("--cases", options->cases, "Shape instantiations per rule")->check(CLI::Range(1, 50))->capture_default_str();
  check->add_option("--seed", options->seed, "Seed for shapes and inputs")->capture_default_str();
  check->callback([options, &context] { context.exitCode = runCheck(*options); });
  CLI::App* list = rules->add_subcommand("list", "List the rules with their labels");
  list->add_option("file", options->file, "Rule file; default: the built-in pack");
  list->callback([options, &context] { context.exitCode = runList(*options); });
  addRulesSynthesizeCommand(*rules, context);
}

} // namespace tessera::cli
