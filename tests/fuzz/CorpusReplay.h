// What every corpus replay test does: each file of tests/fuzz/corpus/<name> goes through its fuzz
// target's check; none may show a defect, and the corpus must reach both sides of the parser (some
// inputs accepted, some refused).
#pragma once

#include "FuzzSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

namespace tessera::fuzz {

inline void expectCorpusReplaysCleanly(const std::string& name, const std::function<FuzzOutcome(const std::filesystem::path&)>& check) {
  const std::filesystem::path corpus = std::filesystem::path(TESSERA_SOURCE_DIR) / "tests/fuzz/corpus" / name;
  ASSERT_TRUE(std::filesystem::is_directory(corpus)) << corpus;
  size_t files = 0, accepted = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const FuzzOutcome outcome = check(entry.path());
    EXPECT_EQ(outcome.defect, "") << entry.path();
    if (outcome.accepted) ++accepted;
  }
  EXPECT_GT(files, 10u);
  EXPECT_GT(accepted, 0u);
  EXPECT_LT(accepted, files);
  std::printf("[ corpus   ] %s: %zu files, %zu accepted, %zu refused\n", name.c_str(), files, accepted, files - accepted);
}

} // namespace tessera::fuzz
