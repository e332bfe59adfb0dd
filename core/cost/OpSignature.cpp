#include "cost/OpSignature.h"

namespace tessera {

std::string OpSignature::key() const {
  std::string s(opName(kind));
  s += '|';
  for (size_t i = 0; i < inputs.size(); ++i) s += (i ? ";" : "") + inputs[i].toString();
  s += '|';
  for (size_t i = 0; i < outputs.size(); ++i) s += (i ? ";" : "") + outputs[i].toString();
  s += '|';
  s += attrs.toString();
  return s;
}

} // namespace tessera
