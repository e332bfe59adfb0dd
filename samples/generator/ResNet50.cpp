// ResNet-50 as TASO benchmarks it: the 16 bottleneck blocks on a [1,64,56,56] input, without the
// stem or classifier (TASO examples/resnet50.py); plain convs with separate ReLUs, no batch norm.
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

constexpr int64_t kExpansion = 4;

// 1x1 conv, 3x3 conv (carrying the stride), 1x1 conv to 4*width; a projection of the shortcut
// when the shape changes (followed by a ReLU as in TASO's and TENSAT's graphs); add; relu.
ValueRef bottleneck(ModelBuilder& b, const std::string& prefix, ValueRef input, int64_t width, int64_t stride) {
  ValueRef t = b.relu(prefix + ".conv1.relu", b.conv(prefix + ".conv1", input, width, 1, 1, Padding::Same));
  t = b.relu(prefix + ".conv2.relu", b.conv(prefix + ".conv2", t, width, 3, stride, Padding::Same));
  t = b.conv(prefix + ".conv3", t, kExpansion * width, 1, 1, Padding::Same);
  ValueRef shortcut = input;
  if (stride > 1 || b.channels(input) != kExpansion * width) {
    shortcut = b.conv(prefix + ".shortcut", input, kExpansion * width, 1, stride, Padding::Same);
    shortcut = b.relu(prefix + ".shortcut.relu", shortcut);
  }
  return b.relu(prefix + ".relu", b.add(prefix + ".add", shortcut, t));
}

} // namespace

Graph buildResNet50() {
  ModelBuilder b("resnet50");
  ValueRef t = b.input("input", {1, 64, 56, 56});
  const int blocks[] = {3, 4, 6, 3};
  int64_t width = 64;
  for (int stage = 0; stage < 4; ++stage, width *= 2) {
    for (int block = 0; block < blocks[stage]; ++block) {
      int64_t stride = (stage > 0 && block == 0) ? 2 : 1;
      t = bottleneck(b, "stage" + std::to_string(stage + 1) + ".block" + std::to_string(block), t, width, stride);
    }
  }
  b.output(t, "output");
  return b.finish();
}

} // namespace tessera::samples
