// MobileNet-v2 with torchvision's shapes: the stride-2 stem, 17 inverted-residual blocks, the
// 1x1 conv to 1280, a 7x7 average pool, dropout and a bias-free linear classifier. As in TASO's
// graphs there is no batch norm, ReLU6 is a plain ReLU node, and convs pad SAME (at stride 2 on even
// sizes that puts the extra row at the end instead of torchvision's symmetric 1; same shapes).
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

ValueRef convRelu(ModelBuilder& b, const std::string& name, ValueRef x, int64_t outChannels, int64_t kernel,
                  int64_t stride, int64_t groups = 1) {
  return b.relu(name + ".relu", b.conv(name, x, outChannels, kernel, stride, Padding::Same, groups));
}

// Expand 1x1 (skipped when the expansion is 1), depthwise 3x3 carrying the stride, linear 1x1
// projection; the input is added back when stride and channels allow.
ValueRef invertedResidual(ModelBuilder& b, const std::string& prefix, ValueRef x, int64_t expansion,
                          int64_t outChannels, int64_t stride) {
  int64_t inChannels = b.channels(x);
  int64_t hidden = inChannels * expansion;
  ValueRef t = x;
  if (expansion != 1) t = convRelu(b, prefix + ".expand", t, hidden, 1, 1);
  t = convRelu(b, prefix + ".depthwise", t, hidden, 3, stride, hidden);
  t = b.conv(prefix + ".project", t, outChannels, 1, 1, Padding::Same);
  if (stride == 1 && inChannels == outChannels) t = b.add(prefix + ".add", x, t);
  return t;
}

struct StageSetting {
  int64_t expansion;
  int64_t channels;
  int repeats;
  int64_t stride;
};

} // namespace

Graph buildMobileNetV2() {
  ModelBuilder b("mobilenet_v2");
  ValueRef x = b.input("input", {1, 3, 224, 224});
  x = convRelu(b, "features.stem", x, 32, 3, 2);
  const StageSetting settings[] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2},  {6, 64, 4, 2},
                                   {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
  int block = 0;
  for (const StageSetting& s : settings) {
    for (int i = 0; i < s.repeats; ++i, ++block) {
      int64_t stride = i == 0 ? s.stride : 1;
      x = invertedResidual(b, "features.block" + std::to_string(block), x, s.expansion, s.channels, stride);
    }
  }
  x = convRelu(b, "features.head", x, 1280, 1, 1);
  x = b.averagePool("classifier.avgpool", x, 7, 1, Padding::Valid);
  x = b.reshape("classifier.flatten", x, {1, 1280});
  x = b.dropout("classifier.dropout", x);
  x = b.linear("classifier.fc", x, 1000);
  b.output(x, "output");
  return b.finish();
}

} // namespace tessera::samples
