// SqueezeNet 1.1 with torchvision's shapes, as in TENSAT's converted graph: plain convs each
// followed by a ReLU, eight Fire modules, dropout, the 1x1 classifier conv, a 13x13 average pool
// and a reshape to [1, 1000].
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

namespace {

ValueRef convRelu(ModelBuilder& b, const std::string& name, ValueRef x, int64_t outChannels, int64_t kernel,
                  int64_t stride, Padding padding) {
  return b.relu(name + ".relu", b.conv(name, x, outChannels, kernel, stride, padding));
}

// Squeeze 1x1, then 1x1 and 3x3 expansions concatenated along channels.
ValueRef fire(ModelBuilder& b, const std::string& prefix, ValueRef x, int64_t squeeze, int64_t expand) {
  ValueRef s = convRelu(b, prefix + ".squeeze", x, squeeze, 1, 1, Padding::Same);
  ValueRef e1 = convRelu(b, prefix + ".expand1x1", s, expand, 1, 1, Padding::Same);
  ValueRef e3 = convRelu(b, prefix + ".expand3x3", s, expand, 3, 1, Padding::Same);
  return b.concat(prefix + ".concat", {e1, e3}, 1);
}

// torchvision pools 3x3/2 with ceil_mode; at these sizes (111, 55, 27) no window hangs over the
// edge, so the plain floor-mode pool computes the same values and shapes.
ValueRef pool(ModelBuilder& b, const std::string& name, ValueRef x) {
  return b.maxPool(name, x, 3, 2, Padding::Valid);
}

} // namespace

Graph buildSqueezeNet() {
  ModelBuilder b("squeezenet");
  ValueRef x = b.input("input", {1, 3, 224, 224});
  x = convRelu(b, "features.conv", x, 64, 3, 2, Padding::Valid); // 64 x 111 x 111
  x = pool(b, "features.pool1", x);                              // 55
  x = fire(b, "features.fire1", x, 16, 64);
  x = fire(b, "features.fire2", x, 16, 64);
  x = pool(b, "features.pool2", x); // 27
  x = fire(b, "features.fire3", x, 32, 128);
  x = fire(b, "features.fire4", x, 32, 128);
  x = pool(b, "features.pool3", x); // 13
  x = fire(b, "features.fire5", x, 48, 192);
  x = fire(b, "features.fire6", x, 48, 192);
  x = fire(b, "features.fire7", x, 64, 256);
  x = fire(b, "features.fire8", x, 64, 256);
  x = b.dropout("classifier.dropout", x);
  x = convRelu(b, "classifier.conv", x, 1000, 1, 1, Padding::Same);
  x = b.averagePool("classifier.avgpool", x, 13, 1, Padding::Valid);
  x = b.reshape("classifier.flatten", x, {1, 1000});
  b.output(x, "output");
  return b.finish();
}

} // namespace tessera::samples
