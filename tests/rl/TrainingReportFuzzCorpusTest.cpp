// Regression for fuzz_training_report: every input in tests/fuzz/corpus/training_report (the shipped
// reports of the three agents, trimmed, broken ones and what the fuzzer kept) reads as each chart
// of the Training tab with finite numbers, or is a tessera::Error naming the file, never a crash.
#include "../fuzz/CheckTrainingReport.h"
#include "../fuzz/CorpusReplay.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

using namespace tessera;

TEST(TrainingReportFuzzCorpus, EveryInputReadsOrFailsCleanly) {
  const std::string scratch = (std::filesystem::temp_directory_path() / ("tessera-report-corpus-" + std::to_string(::getpid()) + ".json")).string();
  fuzz::expectCorpusReplaysCleanly("training_report", [&](const std::filesystem::path& file) {
    return fuzz::checkTrainingReport(fuzz::fileBytes(file.string()), scratch);
  });
}
