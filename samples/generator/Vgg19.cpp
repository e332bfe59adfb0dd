// VGG-19 with torchvision's shapes, as in TENSAT's converted graph: sixteen 3x3 convs each followed
// by a ReLU, five 2x2 max pools, and the classifier as bias-free matmuls with ReLU and dropout.
#include "generator/ModelBuilder.h"
#include "generator/Models.h"

namespace tessera::samples {

Graph buildVgg19() {
  ModelBuilder b("vgg19");
  ValueRef x = b.input("input", {1, 3, 224, 224});
  // Channels per conv, by stage ("E" configuration); each stage ends in a 2x2/2 max pool.
  const std::vector<std::vector<int64_t>> stages{
      {64, 64}, {128, 128}, {256, 256, 256, 256}, {512, 512, 512, 512}, {512, 512, 512, 512}};
  for (size_t stage = 0; stage < stages.size(); ++stage) {
    std::string prefix = "features.stage" + std::to_string(stage + 1);
    for (size_t i = 0; i < stages[stage].size(); ++i) {
      std::string name = prefix + ".conv" + std::to_string(i + 1);
      x = b.relu(name + ".relu", b.conv(name, x, stages[stage][i], 3, 1, Padding::Same));
    }
    x = b.maxPool(prefix + ".pool", x, 2, 2, Padding::Valid);
  }
  // At 224x224 the map is already 7x7: torchvision's adaptive pool is the identity here.
  x = b.reshape("classifier.flatten", x, {1, 512 * 7 * 7});
  x = b.relu("classifier.fc1.relu", b.linear("classifier.fc1", x, 4096));
  x = b.dropout("classifier.dropout1", x);
  x = b.relu("classifier.fc2.relu", b.linear("classifier.fc2", x, 4096));
  x = b.dropout("classifier.dropout2", x);
  x = b.linear("classifier.fc3", x, 1000);
  b.output(x, "output");
  return b.finish();
}

} // namespace tessera::samples
