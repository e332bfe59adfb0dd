// TasoModelFile: TASO's serialised graph format, read op by op into a ModelBuilder.
#include "generator/tensat/TasoModelFile.h"

#include "generator/ModelBuilder.h"
#include "support/Error.h"
#include "support/SplitText.h"

#include <charconv>
#include <map>
#include <optional>

namespace tessera::samples {

namespace {

// TASO's OpType numbers for the ops TENSAT's reader reads (taso/ops.h, yycdavid/taso).
enum class TasoOp : int64_t {
  Input = 0,
  Weight = 1,
  Conv2d = 3,
  Dropout = 4,
  MaxPool = 6,
  AveragePool = 7,
  Relu = 8,
  BatchNorm = 11,
  Concat = 12,
  Reshape = 14,
  Transpose = 15,
  Add = 16,
  MatMul = 18,
};

// TASO's activation numbers, the same as TENSAT's and Tessera's.
constexpr int64_t kActivationNone = 0;
constexpr int64_t kActivationSigmoid = 1;
constexpr int64_t kActivationRelu = 2;
constexpr int64_t kActivationTanh = 3;

struct TasoRecord {
  int64_t guid = 0;
  TasoOp op = TasoOp::Input;
  std::vector<int64_t> inputs; // guids; every input is output 0 of its op (no splits in these files)
  std::vector<int64_t> params;
  size_t line = 0; // of the guid, 1-based
};

class TasoModelReader {
public:
  TasoModelReader(std::string_view modelName, std::string_view text) : name_(modelName), builder_(std::string(modelName)) {
    readRecords(text);
  }

  Graph build() {
    if (records_.empty()) fail(1, "no ops");
    for (const TasoRecord& record : records_) {
      if (record.op == TasoOp::Weight) continue; // made when first used, with a value fit for the use
      values_[record.guid] = buildOp(record);
    }
    // TENSAT's start expression is rooted at the last op of the file (each file has one sink).
    builder_.output(values_.at(records_.back().guid), "output");
    return builder_.finish();
  }

private:
  [[noreturn]] void fail(size_t line, const std::string& problem) const {
    throw Error("TENSAT model '" + name_ + "', line " + std::to_string(line) + ": " + problem);
  }

  int64_t parseNumber(std::string_view text, size_t line) const {
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) fail(line, "'" + std::string(text) + "' is not a number");
    return value;
  }

  // Comma-separated; an empty field lists nothing.
  static std::vector<std::string_view> pieces(std::string_view text) {
    return text.empty() ? std::vector<std::string_view>() : splitText(text, ',');
  }

  std::vector<int64_t> parseList(std::string_view text, size_t line) const {
    std::vector<int64_t> values;
    for (std::string_view part : pieces(text)) values.push_back(parseNumber(part, line));
    return values;
  }

  // "guid:index,guid:index"; only output 0 exists in these files (TENSAT's reader leaves split unread).
  std::vector<int64_t> parseInputs(std::string_view text, size_t line) const {
    std::vector<int64_t> guids;
    for (std::string_view edge : pieces(text)) {
      size_t colon = edge.find(':');
      if (colon == std::string_view::npos) fail(line, "input '" + std::string(edge) + "' is not guid:index");
      if (parseNumber(edge.substr(colon + 1), line) != 0) fail(line, "only output 0 of an op can be read");
      guids.push_back(parseNumber(edge.substr(0, colon), line));
    }
    return guids;
  }

  void readRecords(std::string_view text) {
    std::vector<std::string_view> lines = splitText(text, '\n');
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    if (lines.size() % 4 != 0) fail(lines.size(), "an op takes four lines (guid, type, inputs, parameters)");
    for (size_t i = 0; i < lines.size(); i += 4) {
      TasoRecord record;
      record.line = i + 1;
      record.guid = parseNumber(lines[i], i + 1);
      record.op = static_cast<TasoOp>(parseNumber(lines[i + 1], i + 2));
      record.inputs = parseInputs(lines[i + 2], i + 3);
      record.params = parseList(lines[i + 3], i + 4);
      if (!byGuid_.emplace(record.guid, records_.size()).second) fail(i + 1, "guid " + std::to_string(record.guid) + " appears twice");
      records_.push_back(std::move(record));
    }
  }

  const TasoRecord& recordOf(int64_t guid, size_t line) const {
    auto it = byGuid_.find(guid);
    if (it == byGuid_.end()) fail(line, "input " + std::to_string(guid) + " is not defined");
    return records_[it->second];
  }

  // The weight `guid` as made on first use; every element is `value` (TENSAT's weights have no values).
  ValueRef weight(int64_t guid, size_t line, double value) {
    const TasoRecord& record = recordOf(guid, line);
    if (record.op != TasoOp::Weight) fail(line, "input " + std::to_string(guid) + " is not a weight");
    auto it = weights_.find(guid);
    if (it != weights_.end()) return it->second;
    ValueRef made = builder_.weight("w" + std::to_string(guid), Shape(record.params.begin(), record.params.end()), value);
    weights_.emplace(guid, made);
    return made;
  }

  // 1/fan-in of a weight used as the right-hand side of a product ([K, N]: K; [O, I, kh, kw]: I*kh*kw).
  ValueRef productWeight(int64_t guid, size_t line) {
    const TasoRecord& record = recordOf(guid, line);
    const std::vector<int64_t>& dims = record.params;
    int64_t fanIn = 1;
    if (dims.size() == 2) fanIn = dims[0];
    for (size_t d = 1; dims.size() > 2 && d < dims.size(); ++d) fanIn *= dims[d];
    return weight(guid, line, 1.0 / static_cast<double>(fanIn));
  }

  ValueRef operand(const TasoRecord& record, size_t index) {
    if (index >= record.inputs.size()) fail(record.line, "missing input " + std::to_string(index));
    int64_t guid = record.inputs[index];
    if (recordOf(guid, record.line).op == TasoOp::Weight) return productWeight(guid, record.line);
    auto it = values_.find(guid);
    if (it == values_.end()) fail(record.line, "input " + std::to_string(guid) + " is used before it is defined");
    return it->second;
  }

  int64_t param(const TasoRecord& record, size_t index) const {
    if (index >= record.params.size()) fail(record.line, "missing parameter " + std::to_string(index));
    return record.params[index];
  }

  Padding padding(const TasoRecord& record, size_t index) const {
    int64_t mode = param(record, index);
    if (mode != 0 && mode != 1) fail(record.line, "padding mode " + std::to_string(mode) + " is neither SAME (0) nor VALID (1)");
    return mode == 0 ? Padding::Same : Padding::Valid;
  }

  // A fused activation becomes the op after the conv: ONNX has no fused form, and Tessera's
  // import reads Conv then Relu as two ops.
  ValueRef activate(const TasoRecord& record, const std::string& name, ValueRef x, int64_t activation) {
    switch (activation) {
    case kActivationNone: return x;
    case kActivationSigmoid: return builder_.sigmoid(name + ".sigmoid", x);
    case kActivationRelu: return builder_.relu(name + ".relu", x);
    case kActivationTanh: return builder_.tanh(name + ".tanh", x);
    default: fail(record.line, "unknown activation " + std::to_string(activation));
    }
  }

  ValueRef buildOp(const TasoRecord& r) {
    std::string id = std::to_string(r.guid);
    switch (r.op) {
    case TasoOp::Input:
      return builder_.input(++inputCount_ == 1 ? "input" : "input_" + std::to_string(inputCount_ - 1),
                            Shape(r.params.begin(), r.params.end()));
    case TasoOp::Conv2d: {
      ValueRef conv = builder_.conv("conv" + id, operand(r, 0), operand(r, 1), Window(param(r, 8), param(r, 9)), padding(r, 10));
      return activate(r, "conv" + id, conv, param(r, 11));
    }
    // TENSAT's reader builds pools without their fused activation (parameter 10), and so does this one.
    case TasoOp::MaxPool:
      return builder_.maxPool("maxpool" + id, operand(r, 0), Window(param(r, 5), param(r, 6)),
                              Window(param(r, 7), param(r, 8)), padding(r, 9));
    case TasoOp::AveragePool:
      return builder_.averagePool("avgpool" + id, operand(r, 0), Window(param(r, 5), param(r, 6)),
                                  Window(param(r, 7), param(r, 8)), padding(r, 9));
    case TasoOp::Dropout: return builder_.dropout("dropout" + id, operand(r, 0));
    case TasoOp::Relu: return builder_.relu("relu" + id, operand(r, 0));
    case TasoOp::Add: return builder_.add("add" + id, operand(r, 0), operand(r, 1));
    case TasoOp::MatMul: return builder_.matmul("matmul" + id, operand(r, 0), operand(r, 1));
    case TasoOp::BatchNorm: {
      // Identity statistics: scale 1, bias 0, mean 0, variance 1.
      if (r.inputs.size() != 5) fail(r.line, "batchnorm takes 5 inputs");
      ValueRef x = operand(r, 0);
      return builder_.batchNorm("batchnorm" + id, x, weight(r.inputs[1], r.line, 1.0), weight(r.inputs[2], r.line, 0.0),
                                weight(r.inputs[3], r.line, 0.0), weight(r.inputs[4], r.line, 1.0));
    }
    case TasoOp::Concat: {
      std::vector<ValueRef> inputs;
      for (size_t i = 0; i < r.inputs.size(); ++i) inputs.push_back(operand(r, i));
      return builder_.concat("concat" + id, std::move(inputs), param(r, 0));
    }
    case TasoOp::Reshape: return builder_.reshape("reshape" + id, operand(r, 0), Shape(r.params.begin(), r.params.end()));
    case TasoOp::Transpose: return transpose(r);
    case TasoOp::Weight: break;
    }
    fail(r.line, "op type " + std::to_string(static_cast<int64_t>(r.op)) + " is not one TENSAT's reader reads");
  }

  // Parameters: rank, the permutation, TASO's shuffle flag (a layout hint with no meaning here).
  // A transposed weight gets the fan-in of the product it feeds: its first dimension after the swap.
  ValueRef transpose(const TasoRecord& r) {
    int64_t rank = param(r, 0);
    if (rank < 1 || static_cast<size_t>(rank) + 1 > r.params.size()) fail(r.line, "transpose rank does not fit its parameters");
    std::vector<int64_t> perm(r.params.begin() + 1, r.params.begin() + 1 + rank);
    for (int64_t axis : perm)
      if (axis < 0 || axis >= rank) fail(r.line, "transpose permutation names axis " + std::to_string(axis));
    if (r.inputs.empty()) fail(r.line, "transpose takes 1 input");
    const TasoRecord& source = recordOf(r.inputs[0], r.line);
    ValueRef x = source.op == TasoOp::Weight && source.params.size() == 2
                     ? weight(r.inputs[0], r.line, 1.0 / static_cast<double>(source.params[static_cast<size_t>(perm[0])]))
                     : operand(r, 0);
    return builder_.transpose("transpose" + std::to_string(r.guid), x, std::move(perm));
  }

  std::string name_;
  ModelBuilder builder_;
  std::vector<TasoRecord> records_;
  std::map<int64_t, size_t> byGuid_;
  std::map<int64_t, ValueRef> values_;
  std::map<int64_t, ValueRef> weights_;
  int inputCount_ = 0;
};

} // namespace

Graph readTasoModel(std::string_view modelName, std::string_view text) {
  return TasoModelReader(modelName, text).build();
}

} // namespace tessera::samples
