// NASNet-A as TASO benchmarks it: the ResNeXt stem, then three stages of five normal cells and a
// reduction cell (TASO examples/nasnet_a.py); plain convs with separate ReLUs, no classifier.
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

struct Cell {
  ModelBuilder& b;
  std::string prefix;

  std::string at(const std::string& what) const { return prefix + "." + what; }

  // 1x1 conv + relu to `outChannels`.
  ValueRef squeeze(const std::string& name, ValueRef x, int64_t outChannels) const {
    return b.relu(at(name + ".relu"), b.conv(at(name), x, outChannels, 1, 1, Padding::Same));
  }

  // Brings the previous cell's output to the current one's shape: a 1x1 conv at equal size,
  // a strided 3x3 conv when the previous output is larger.
  ValueRef fit(ValueRef current, ValueRef previous) const {
    if (b.height(previous) == b.height(current)) return squeeze("fit", previous, b.channels(current));
    return b.relu(at("fit.relu"), b.conv(at("fit"), previous, b.channels(current), 3, 2, Padding::Same));
  }

  // Depthwise-style grouped k x k conv (groups = outChannels) then a 1x1 conv; no activations.
  ValueRef separable(const std::string& name, ValueRef x, int64_t outChannels, int64_t kernel, int64_t stride) const {
    ValueRef t = b.conv(at(name + ".depthwise"), x, outChannels, kernel, stride, Padding::Same, outChannels);
    return b.conv(at(name + ".pointwise"), t, outChannels, 1, 1, Padding::Same);
  }

  ValueRef averagePool(const std::string& name, ValueRef x, int64_t stride) const {
    return b.averagePool(at(name), x, 3, stride, Padding::Same);
  }
  ValueRef maxPool(const std::string& name, ValueRef x, int64_t stride) const {
    return b.maxPool(at(name), x, 3, stride, Padding::Same);
  }
  ValueRef add(const std::string& name, ValueRef x, ValueRef y) const { return b.add(at(name), x, y); }
};

// Ten branches added in pairs, the five sums concatenated along channels.
ValueRef normalCell(ModelBuilder& b, const std::string& prefix, ValueRef prev, ValueRef cur, int64_t outChannels) {
  Cell c{b, prefix};
  cur = c.squeeze("squeeze", cur, outChannels);
  prev = c.fit(cur, prev);
  // The branches in TASO's order (node order decides the exported file's bytes, so no two
  // graph-building calls share one expression: argument evaluation order is unspecified).
  ValueRef branch0 = c.separable("sep0", cur, outChannels, 3, 1);
  ValueRef branch2 = c.separable("sep1", prev, outChannels, 3, 1);
  ValueRef branch3 = c.separable("sep2", cur, outChannels, 3, 1);
  ValueRef branch4 = c.averagePool("avgpool0", cur, 1);
  // Branches 6 and 7 are the same pooling of `prev`, as in TASO's graph: two nodes, one e-class.
  ValueRef branch6 = c.averagePool("avgpool1", prev, 1);
  ValueRef branch7 = c.averagePool("avgpool2", prev, 1);
  ValueRef branch8 = c.separable("sep3", prev, outChannels, 3, 1);
  ValueRef branch9 = c.separable("sep4", prev, outChannels, 3, 1);
  std::vector<ValueRef> sums{c.add("add0", branch0, cur), c.add("add1", branch2, branch3), c.add("add2", branch4, prev),
                             c.add("add3", branch6, branch7), c.add("add4", branch8, branch9)};
  return b.concat(prefix + ".concat", sums, 1);
}

// Halves the spatial size; five sums, two of which feed later branches, concatenated.
ValueRef reductionCell(ModelBuilder& b, const std::string& prefix, ValueRef prev, ValueRef cur, int64_t outChannels) {
  Cell c{b, prefix};
  cur = c.squeeze("squeeze", cur, outChannels);
  prev = c.fit(cur, prev);
  std::vector<ValueRef> sums;
  ValueRef branch0 = c.separable("sep0", prev, outChannels, 7, 2);
  ValueRef branch1 = c.separable("sep1", cur, outChannels, 5, 2);
  sums.push_back(c.add("add0", branch0, branch1));
  ValueRef branch2 = c.maxPool("maxpool0", cur, 2);
  ValueRef branch3 = c.separable("sep2", prev, outChannels, 7, 2);
  sums.push_back(c.add("add1", branch2, branch3));
  ValueRef branch4 = c.averagePool("avgpool0", cur, 2);
  ValueRef branch5 = c.separable("sep3", prev, outChannels, 5, 2);
  sums.push_back(c.add("add2", branch4, branch5));
  ValueRef branch6 = c.maxPool("maxpool1", cur, 2);
  ValueRef branch7 = c.separable("sep4", sums[0], outChannels, 3, 1);
  sums.push_back(c.add("add3", branch6, branch7));
  ValueRef branch8 = c.averagePool("avgpool1", sums[0], 1);
  sums.push_back(c.add("add4", branch8, sums[1]));
  return b.concat(prefix + ".concat", sums, 1);
}

} // namespace

Graph buildNasNetA() {
  ModelBuilder b("nasnet_a");
  ValueRef t = b.input("input", {1, 3, 224, 224});
  t = b.relu("stem.conv.relu", b.conv("stem.conv", t, 64, 7, 2, Padding::Same));
  t = b.maxPool("stem.pool", t, 3, 2, Padding::Same);
  int64_t outChannels = 128;
  for (int stage = 1; stage <= 3; ++stage, outChannels *= 2) {
    std::string stagePrefix = "stage" + std::to_string(stage);
    ValueRef prev = t;
    ValueRef cur = t;
    for (int cell = 0; cell < 5; ++cell) {
      ValueRef next = normalCell(b, stagePrefix + ".normal" + std::to_string(cell), prev, cur, outChannels);
      prev = cur;
      cur = next;
    }
    t = reductionCell(b, stagePrefix + ".reduction", prev, cur, 2 * outChannels);
  }
  b.output(t, "output");
  return b.finish();
}

} // namespace tessera::samples
