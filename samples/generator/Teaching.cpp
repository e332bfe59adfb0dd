#include "generator/Teaching.h"

#include "generator/ModelBuilder.h"

namespace tessera::samples {

Graph phaseOrderingModel() {
  ModelBuilder b("phase_ordering");
  ValueRef x = b.input("x", {64, 512});
  ValueRef y = b.input("y", {64, 512});
  ValueRef first = b.matmul("x_w1", x, b.weight("w1", {512, 512}));
  ValueRef second = b.matmul("x_w2", x, b.weight("w2", {512, 512}));
  b.output(b.add("sum", second, b.add("partial", first, y)), "out");
  return b.finish();
}

} // namespace tessera::samples
