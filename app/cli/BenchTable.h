// The table `bench` prints: one row per model (original cost, then per strategy its speedup, time,
// e-nodes and, with --e2e, what optimize returns), a mean row that leaves out unverified cells,
// PACT'24's published figures beside the paper suite's models, and the notes that explain the
// marks. Built once from the rows and rendered two ways, so the console table and the Markdown
// that the README and the guide show (`bench --markdown F`) cannot say different things.
#pragma once

#include "BenchCell.h"

#include <string>
#include <vector>

namespace tessera::cli {

struct BenchTable {
  struct Column {
    std::string title;
    bool groupStart = false; // the first column of a strategy's (or the paper's) group
  };
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> body; // one row per model, then the mean row
  std::vector<std::string> notes;             // what the marks in the cells mean
};

BenchTable benchTable(const std::vector<BenchModel>& models, const std::vector<std::string>& strategies,
                      const std::vector<BenchRow>& rows, bool e2e, bool seeded);

// Aligned columns for a terminal, groups separated by " | ", notes below.
std::string benchTableText(const BenchTable& table);

// A GitHub Markdown table, notes below as a list.
std::string benchTableMarkdown(const BenchTable& table);

} // namespace tessera::cli
