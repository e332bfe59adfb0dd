// Inception-v3 as TASO benchmarks it (TASO examples/inceptionv3.py, torchvision's layer shapes):
// stem, blocks A x3, B, C x4, D, E x2 and the global average pool, no classifier. Batch 1, the
// batch of PACT'24's runtimes (TASO's script uses 32). Every conv is followed by its own ReLU.
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

struct Block {
  ModelBuilder& b;
  std::string prefix;

  // Conv + relu. TASO pads SAME unless torchvision's padding is zero for a kernel larger than 1x1
  // (VALID); SAME at stride 1 equals torchvision's symmetric padding.
  ValueRef conv(const std::string& name, ValueRef x, int64_t outChannels, Window kernel, int64_t stride = 1,
                Padding padding = Padding::Same) const {
    std::string full = prefix + "." + name;
    return b.relu(full + ".relu", b.conv(full, x, outChannels, kernel, stride, padding));
  }
  ValueRef averagePool3x3(const std::string& name, ValueRef x) const {
    return b.averagePool(prefix + "." + name, x, 3, 1, Padding::Same);
  }
  ValueRef maxPool3x3Stride2(const std::string& name, ValueRef x) const {
    return b.maxPool(prefix + "." + name, x, 3, 2, Padding::Valid);
  }
  ValueRef concat(std::vector<ValueRef> branches) const { return b.concat(prefix + ".concat", std::move(branches), 1); }
};

ValueRef stem(ModelBuilder& b, ValueRef x) {
  Block s{b, "stem"};
  x = s.conv("conv1", x, 32, 3, 2, Padding::Valid);  // 32 x 149 x 149
  x = s.conv("conv2", x, 32, 3, 1, Padding::Valid);  // 32 x 147 x 147
  x = s.conv("conv3", x, 64, 3);                     // 64 x 147 x 147
  x = s.maxPool3x3Stride2("pool1", x);               // 64 x 73 x 73
  x = s.conv("conv4", x, 80, 1);                     // 80 x 73 x 73
  x = s.conv("conv5", x, 192, 3, 1, Padding::Valid); // 192 x 71 x 71
  return s.maxPool3x3Stride2("pool2", x);            // 192 x 35 x 35
}

ValueRef inceptionA(ModelBuilder& b, const std::string& prefix, ValueRef x, int64_t poolFeatures) {
  Block k{b, prefix};
  ValueRef branch1x1 = k.conv("branch1x1", x, 64, 1);
  ValueRef branch5x5 = k.conv("branch5x5_1", x, 48, 1);
  branch5x5 = k.conv("branch5x5_2", branch5x5, 64, 5);
  ValueRef branch3x3dbl = k.conv("branch3x3dbl_1", x, 64, 1);
  branch3x3dbl = k.conv("branch3x3dbl_2", branch3x3dbl, 96, 3);
  branch3x3dbl = k.conv("branch3x3dbl_3", branch3x3dbl, 96, 3);
  ValueRef branchPool = k.averagePool3x3("branch_pool.avgpool", x);
  branchPool = k.conv("branch_pool", branchPool, poolFeatures, 1);
  return k.concat({branch1x1, branch5x5, branch3x3dbl, branchPool});
}

ValueRef inceptionB(ModelBuilder& b, const std::string& prefix, ValueRef x) {
  Block k{b, prefix};
  ValueRef branch3x3 = k.conv("branch3x3", x, 384, 3, 2, Padding::Valid);
  ValueRef branch3x3dbl = k.conv("branch3x3dbl_1", x, 64, 1);
  branch3x3dbl = k.conv("branch3x3dbl_2", branch3x3dbl, 96, 3);
  branch3x3dbl = k.conv("branch3x3dbl_3", branch3x3dbl, 96, 3, 2, Padding::Valid);
  ValueRef branchPool = k.maxPool3x3Stride2("branch_pool", x);
  return k.concat({branch3x3, branch3x3dbl, branchPool});
}

ValueRef inceptionC(ModelBuilder& b, const std::string& prefix, ValueRef x, int64_t channels7x7) {
  Block k{b, prefix};
  const int64_t c7 = channels7x7;
  ValueRef branch1x1 = k.conv("branch1x1", x, 192, 1);
  ValueRef branch7x7 = k.conv("branch7x7_1", x, c7, 1);
  branch7x7 = k.conv("branch7x7_2", branch7x7, c7, {1, 7});
  branch7x7 = k.conv("branch7x7_3", branch7x7, 192, {7, 1});
  ValueRef branch7x7dbl = k.conv("branch7x7dbl_1", x, c7, 1);
  branch7x7dbl = k.conv("branch7x7dbl_2", branch7x7dbl, c7, {7, 1});
  branch7x7dbl = k.conv("branch7x7dbl_3", branch7x7dbl, c7, {1, 7});
  branch7x7dbl = k.conv("branch7x7dbl_4", branch7x7dbl, c7, {7, 1});
  branch7x7dbl = k.conv("branch7x7dbl_5", branch7x7dbl, 192, {1, 7});
  ValueRef branchPool = k.averagePool3x3("branch_pool.avgpool", x);
  branchPool = k.conv("branch_pool", branchPool, 192, 1);
  return k.concat({branch1x1, branch7x7, branch7x7dbl, branchPool});
}

ValueRef inceptionD(ModelBuilder& b, const std::string& prefix, ValueRef x) {
  Block k{b, prefix};
  ValueRef branch3x3 = k.conv("branch3x3_1", x, 192, 1);
  branch3x3 = k.conv("branch3x3_2", branch3x3, 320, 3, 2, Padding::Valid);
  ValueRef branch7x7x3 = k.conv("branch7x7x3_1", x, 192, 1);
  branch7x7x3 = k.conv("branch7x7x3_2", branch7x7x3, 192, {1, 7});
  branch7x7x3 = k.conv("branch7x7x3_3", branch7x7x3, 192, {7, 1});
  branch7x7x3 = k.conv("branch7x7x3_4", branch7x7x3, 192, 3, 2, Padding::Valid);
  ValueRef branchPool = k.maxPool3x3Stride2("branch_pool", x);
  return k.concat({branch3x3, branch7x7x3, branchPool});
}

ValueRef inceptionE(ModelBuilder& b, const std::string& prefix, ValueRef x) {
  Block k{b, prefix};
  ValueRef branch1x1 = k.conv("branch1x1", x, 320, 1);
  ValueRef branch3x3 = k.conv("branch3x3_1", x, 384, 1);
  ValueRef branch3x3a = k.conv("branch3x3_2a", branch3x3, 384, {1, 3});
  ValueRef branch3x3b = k.conv("branch3x3_2b", branch3x3, 384, {3, 1});
  ValueRef branch3x3dbl = k.conv("branch3x3dbl_1", x, 448, 1);
  branch3x3dbl = k.conv("branch3x3dbl_2", branch3x3dbl, 384, 3);
  ValueRef branch3x3dbla = k.conv("branch3x3dbl_3a", branch3x3dbl, 384, {1, 3});
  ValueRef branch3x3dblb = k.conv("branch3x3dbl_3b", branch3x3dbl, 384, {3, 1});
  ValueRef branchPool = k.averagePool3x3("branch_pool.avgpool", x);
  branchPool = k.conv("branch_pool", branchPool, 192, 1);
  return k.concat({branch1x1, branch3x3a, branch3x3b, branch3x3dbla, branch3x3dblb, branchPool});
}

} // namespace

Graph buildInceptionV3() {
  ModelBuilder b("inception_v3");
  ValueRef x = stem(b, b.input("input", {1, 3, 299, 299}));
  x = inceptionA(b, "mixed_5b", x, 32);
  x = inceptionA(b, "mixed_5c", x, 64);
  x = inceptionA(b, "mixed_5d", x, 64);
  x = inceptionB(b, "mixed_6a", x);
  x = inceptionC(b, "mixed_6b", x, 128);
  x = inceptionC(b, "mixed_6c", x, 160);
  x = inceptionC(b, "mixed_6d", x, 160);
  x = inceptionC(b, "mixed_6e", x, 192);
  x = inceptionD(b, "mixed_7a", x);
  x = inceptionE(b, "mixed_7b", x);
  x = inceptionE(b, "mixed_7c", x);
  // The global average pool over the 8x8 map (TASO's script pools 1x1 here, a no-op; TENSAT's
  // converted graph pools 8x8, as torchvision does).
  x = b.averagePool("avgpool", x, 8, 1, Padding::Valid);
  b.output(x, "output");
  return b.finish();
}

} // namespace tessera::samples
