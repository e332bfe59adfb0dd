#include "BenchTable.h"

#include "PublishedResults.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

namespace tessera::cli {

namespace {

std::string percent(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f%%", value);
  return text;
}

std::string fixed(double value, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// "12.34%" for one seed, "12.34±0.56%" (mean ± sample standard deviation) for several.
std::string speedupText(const BenchRow& row, bool seeded) {
  if (!seeded) return percent(row.speedupPct);
  char text[48];
  std::snprintf(text, sizeof text, "%.2f±%.2f%%", row.speedupPct, row.speedupStd);
  return text;
}

// The published figures of a model labelled "tensat/vgg19" (two models shared a stem) are vgg19's.
const PublishedResult* publishedResultOf(const BenchModel& model) {
  return pact24Result(model.name.substr(model.name.rfind('/') + 1));
}

// Running means of a column, over the cells that count.
struct Mean {
  double sum = 0;
  int count = 0;
  void add(double value) {
    sum += value;
    ++count;
  }
  std::string text() const { return percent(count ? sum / count : 0.0); }
};

} // namespace

BenchTable benchTable(const std::vector<BenchModel>& models, const std::vector<std::string>& strategies,
                      const std::vector<BenchRow>& rows, bool e2e, bool seeded) {
  BenchTable table;
  bool anyPublished = false;
  for (const BenchModel& model : models) anyPublished = anyPublished || publishedResultOf(model);

  table.columns.push_back({"model"});
  table.columns.push_back({"original ms"});
  if (e2e) table.columns.push_back({"e2e ms"});
  for (const std::string& strategy : strategies) {
    table.columns.push_back({strategy + " speedup", true});
    table.columns.push_back({"time s"});
    table.columns.push_back({"enodes"});
    if (e2e) table.columns.push_back({"e2e"});
  }
  if (anyPublished) {
    table.columns.push_back({"PACT'24 TENSAT", true});
    table.columns.push_back({"OCF/ILP"});
    table.columns.push_back({"ILP/ILP"});
  }

  std::map<std::string, Mean> speedupMeans, e2eMeans;
  Mean published[3];
  bool anyUnverified = false, anyKept = false, anyInSample = false;
  for (const BenchModel& model : models) {
    std::vector<std::string> cells{model.name};
    double original = 0;
    std::optional<double> e2eOriginal;
    for (const BenchRow& row : rows) {
      if (row.model != model.name) continue;
      original = row.originalMs;
      if (row.e2eOriginalMs) e2eOriginal = row.e2eOriginalMs;
    }
    cells.push_back(fixed(original, 4));
    if (e2e) cells.push_back(e2eOriginal ? fixed(*e2eOriginal, 3) : "-");
    for (const std::string& strategy : strategies) {
      auto it = std::find_if(rows.begin(), rows.end(),
                             [&](const BenchRow& row) { return row.model == model.name && row.strategy == strategy; });
      if (it == rows.end() || !it->error.empty()) {
        cells.insert(cells.end(), {"error", "", ""});
        if (e2e) cells.push_back("");
        continue;
      }
      // A speedup nobody could check is shown, marked, and left out of the means.
      const bool unverified = it->verificationRun && !it->verified;
      anyUnverified = anyUnverified || unverified;
      const bool inSample = it->inSample.value_or(false);
      anyInSample = anyInSample || inSample;
      cells.push_back((unverified ? "UNVERIF " : "") + speedupText(*it, seeded) + (inSample ? " i" : ""));
      cells.push_back(fixed(it->seconds, 2));
      cells.push_back(std::to_string(it->enodes));
      if (!unverified) speedupMeans[strategy].add(it->speedupPct);
      if (!e2e) continue;
      if (unverified || !it->e2eReturnedPct) {
        cells.push_back("-");
        continue;
      }
      anyKept = anyKept || it->keptOriginal > 0;
      cells.push_back(percent(*it->e2eReturnedPct) + (it->keptOriginal ? " k" : ""));
      e2eMeans[strategy].add(*it->e2eReturnedPct);
    }
    if (const PublishedResult* paper = publishedResultOf(model)) {
      const double figures[3] = {paper->tensatPct, paper->ocfIlpPct, paper->ilpIlpPct};
      for (int i = 0; i < 3; ++i) {
        cells.push_back(percent(figures[i]));
        published[i].add(figures[i]);
      }
    } else if (anyPublished) {
      cells.insert(cells.end(), {"", "", ""});
    }
    table.body.push_back(std::move(cells));
  }

  std::vector<std::string> mean{"mean", ""};
  if (e2e) mean.push_back("");
  for (const std::string& strategy : strategies) {
    mean.insert(mean.end(), {speedupMeans[strategy].text(), "", ""});
    if (e2e) mean.push_back(e2eMeans[strategy].text());
  }
  if (published[0].count)
    for (const Mean& figure : published) mean.push_back(figure.text());
  else if (anyPublished)
    mean.insert(mean.end(), {"", "", ""});
  table.body.push_back(std::move(mean));

  if (anyInSample) table.notes.push_back("i: in-sample, the agent or guide trained on this model");
  if (anyUnverified) table.notes.push_back("UNVERIF: the optimised graph did not verify against the original; the means leave it out");
  if (seeded) table.notes.push_back("speedup: mean ± sample standard deviation over seeds; time s: mean per run");
  if (published[0].count)
    table.notes.push_back("PACT'24: published speedups on TENSAT's graphs (mean of 5 seeds, node limit 2000, TASO's cuDNN costs on "
                          "their GPU); compare with samples/tensat models");
  if (e2e) {
    table.notes.push_back("speedup: by the cost model; e2e: measured end to end, what optimize returns (the candidate, or the original)");
    if (anyKept) table.notes.push_back("k: the candidate was not faster end to end, so the original is kept (0 %)");
  }
  return table;
}

std::string benchTableText(const BenchTable& table) {
  // Width in characters, not bytes: "±" is two bytes in UTF-8 and one column on a terminal.
  auto displayWidth = [](const std::string& text) {
    return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char ch) { return (ch & 0xC0) != 0x80; }));
  };
  std::vector<size_t> widths(table.columns.size(), 0);
  for (size_t c = 0; c < table.columns.size(); ++c) {
    widths[c] = displayWidth(table.columns[c].title);
    for (const auto& row : table.body) widths[c] = std::max(widths[c], c < row.size() ? displayWidth(row[c]) : 0);
  }
  auto line = [&](auto cellAt) {
    std::string text;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      const std::string cell = cellAt(c);
      const std::string padding(widths[c] - displayWidth(cell), ' ');
      if (c > 0) text += table.columns[c].groupStart ? " | " : " ";
      text += c == 0 ? cell + padding : padding + cell; // names to the left, figures to the right
    }
    return text + "\n";
  };
  std::string text = "\n" + line([&](size_t c) { return table.columns[c].title; });
  for (const auto& row : table.body) text += line([&](size_t c) { return c < row.size() ? row[c] : std::string(); });
  for (const std::string& note : table.notes) text += note + "\n";
  return text;
}

std::string benchTableMarkdown(const BenchTable& table) {
  auto line = [&](auto cellAt) {
    std::string text = "|";
    for (size_t c = 0; c < table.columns.size(); ++c) text += " " + cellAt(c) + " |";
    return text + "\n";
  };
  std::string text = line([&](size_t c) { return table.columns[c].title; });
  text += line([&](size_t c) { return std::string(c == 0 ? "---" : "---:"); });
  for (size_t r = 0; r < table.body.size(); ++r) {
    const bool meanRow = r + 1 == table.body.size();
    text += line([&](size_t c) {
      const std::string cell = c < table.body[r].size() ? table.body[r][c] : std::string();
      return meanRow && !cell.empty() ? "**" + cell + "**" : cell;
    });
  }
  if (!table.notes.empty()) text += "\n";
  for (const std::string& note : table.notes) text += "- " + note + "\n";
  return text;
}

} // namespace tessera::cli
