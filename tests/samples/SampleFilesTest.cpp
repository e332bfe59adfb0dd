// The committed samples/<name>.onnx (corrected suite) and samples/tensat/<name>.onnx (TENSAT's
// graphs) files: regenerating them gives the same bytes, each stays under 1 MB (splat weights as
// ConstantOfShape), and importing one gives back the built graph.
#include "generator/BenchmarkModels.h"

#include "ir/GraphHash.h"
#include "onnx/OnnxExport.h"
#include "onnx/OnnxImport.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace tessera {
namespace {

struct SampleCase {
  BenchmarkSuite suite;
  std::string name;
};

std::string sampleDir(BenchmarkSuite suite) {
  return std::string(TESSERA_SOURCE_DIR) + (suite == BenchmarkSuite::Tensat ? "/samples/tensat/" : "/samples/");
}

std::string samplePath(const SampleCase& sample) { return sampleDir(sample.suite) + sample.name + ".onnx"; }

std::vector<SampleCase> everySample() {
  std::vector<SampleCase> cases;
  for (BenchmarkSuite suite : {BenchmarkSuite::Corrected, BenchmarkSuite::Tensat})
    for (const std::string& name : benchmarkModelNames()) cases.push_back({suite, name});
  return cases;
}

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

class SampleFile : public ::testing::TestWithParam<SampleCase> {
protected:
  Graph build() const { return buildBenchmarkModel(GetParam().name, GetParam().suite); }
};

TEST_P(SampleFile, RegeneratingGivesTheCommittedBytes) {
  std::string committed = readFile(samplePath(GetParam()));
  ASSERT_FALSE(committed.empty()) << samplePath(GetParam()) << " is missing";
  std::string fresh = onnx_io::exportOnnxBytes(build());
  EXPECT_EQ(fresh, onnx_io::exportOnnxBytes(build())) << "export is not deterministic";
  EXPECT_TRUE(fresh == committed) << samplePath(GetParam()) << " is stale: regenerate with `tessera-generate-samples "
                                  << sampleDir(GetParam().suite) << " " << benchmarkSuiteName(GetParam().suite) << "` (" << fresh.size()
                                  << " bytes now, " << committed.size() << " committed)";
}

TEST_P(SampleFile, StaysUnderOneMegabyte) {
  std::string committed = readFile(samplePath(GetParam()));
  EXPECT_GT(committed.size(), 0u);
  EXPECT_LT(committed.size(), 1024u * 1024u);
}

TEST_P(SampleFile, ImportsAsTheBuiltGraph) {
  Graph built = build();
  Graph imported = onnx_io::importOnnxFile(samplePath(GetParam()));
  EXPECT_EQ(imported.size(), built.size());
  EXPECT_EQ(imported.opCount(), built.opCount());
  EXPECT_EQ(structuralHash(imported), structuralHash(built));
  EXPECT_TRUE(structurallyEqual(imported, built));
  ASSERT_EQ(imported.inputNodes().size(), built.inputNodes().size());
  for (size_t i = 0; i < built.inputNodes().size(); ++i) {
    const Node& a = imported.node(imported.inputNodes()[i]);
    const Node& b = built.node(built.inputNodes()[i]);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.outputTypes, b.outputTypes);
  }
  for (NodeId id : imported.weightNodes()) {
    const Node& w = imported.node(id);
    ASSERT_TRUE(w.weight) << w.name;
    EXPECT_TRUE(w.weight->isSplat()) << w.name << " came back dense";
  }
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleFile, ::testing::ValuesIn(everySample()),
                         [](const ::testing::TestParamInfo<SampleCase>& info) {
                           return std::string(benchmarkSuiteName(info.param.suite)) + "_" + info.param.name;
                         });

} // namespace
} // namespace tessera
