// ResNeXt-50 (32 groups) as TASO benchmarks it: the 7x7 stem and 16 bottleneck blocks, no
// classifier (TASO examples/resnext50.py); plain convs with separate ReLUs, no batch norm.
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

constexpr int64_t kGroups = 32;

// 1x1 conv, 3x3 grouped conv (carrying the stride), 1x1 conv to 2*width; a projection of the
// shortcut when the shape changes; add; relu. As in TASO's and TENSAT's graphs, the projection
// conv is followed by a ReLU.
ValueRef resnextBlock(ModelBuilder& b, const std::string& prefix, ValueRef input, int64_t width, int64_t stride) {
  ValueRef t = b.relu(prefix + ".conv1.relu", b.conv(prefix + ".conv1", input, width, 1, 1, Padding::Same));
  t = b.relu(prefix + ".conv2.relu", b.conv(prefix + ".conv2", t, width, 3, stride, Padding::Same, kGroups));
  t = b.conv(prefix + ".conv3", t, 2 * width, 1, 1, Padding::Same);
  ValueRef shortcut = input;
  if (stride > 1 || b.channels(input) != 2 * width) {
    shortcut = b.conv(prefix + ".shortcut", input, 2 * width, 1, stride, Padding::Same);
    shortcut = b.relu(prefix + ".shortcut.relu", shortcut);
  }
  return b.relu(prefix + ".relu", b.add(prefix + ".add", shortcut, t));
}

} // namespace

Graph buildResNeXt50() {
  ModelBuilder b("resnext50");
  ValueRef t = b.input("input", {1, 3, 224, 224});
  t = b.relu("stem.conv.relu", b.conv("stem.conv", t, 64, 7, 2, Padding::Same));
  t = b.maxPool("stem.pool", t, 3, 2, Padding::Same);
  const int blocks[] = {3, 4, 6, 3};
  int64_t width = 128;
  for (int stage = 0; stage < 4; ++stage, width *= 2) {
    for (int block = 0; block < blocks[stage]; ++block) {
      int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      t = resnextBlock(b, "stage" + std::to_string(stage + 1) + ".block" + std::to_string(block), t, width, stride);
    }
  }
  b.output(t, "output");
  return b.finish();
}

} // namespace tessera::samples
