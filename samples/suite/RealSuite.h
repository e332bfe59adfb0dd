// The real-model suite: exported models as packages ship them (samples/real/suite.json), each with
// the input shapes, and the values of inputs that select a control-flow branch, it is documented
// to run at. bench --suite real and the tests read it from here.
#pragma once

#include "ir/Graph.h"
#include "onnx/ShapeBindings.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tessera {

struct RealSuiteModel {
  std::string name;
  std::string path; // absolute
  std::string kind; // detector, ocr, mobile-cnn, text-transformer, speech
  std::string description;
  std::map<std::string, Shape> inputShapes; // whole shapes of inputs with open axes
  std::map<std::string, int64_t> inputValues;              // scalar inputs bound to a value (a sample rate)
  std::string source, licence, sha256;
  bool controlFlow = false; // listed under control_flow_models: its network sits inside an If

  onnx_io::ShapeBindings shapeBindings() const; // --input-shape for each of inputShapes
};

// samples/real/suite.json in the source tree this program was built from.
std::string realSuiteManifestPath();

// The suite's models; with `includeControlFlow` also the control-flow ones. Throws tessera::Error
// naming the manifest and the entry for a malformed manifest or a model file that is missing.
std::vector<RealSuiteModel> realSuiteModels(bool includeControlFlow = false,
                                            const std::string& manifest = realSuiteManifestPath());

// The model imported at its documented shapes, with its input values bound as constants.
Graph importRealSuiteModel(const RealSuiteModel& model);

// The entry named `name`; throws tessera::Error naming the known models when there is none.
RealSuiteModel realSuiteModel(const std::string& name, const std::string& manifest = realSuiteManifestPath());

} // namespace tessera
