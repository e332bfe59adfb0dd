// Parsing and describing tunable workloads.
#include "tune/Workload.h"

#include "support/Error.h"
#include "support/SplitText.h"

#include <charconv>

namespace tessera::tune {

namespace {

[[noreturn]] void fail(std::string_view text, const std::string& problem) {
  throw Error("workload '" + std::string(text) + "': " + problem);
}

// A positive size no larger than 2^20 (a kernel of larger extents is not a tuning workload).
int64_t parseSize(std::string_view whole, std::string_view part, std::string_view what, int64_t minimum = 1) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
  if (part.empty() || ec != std::errc() || end != part.data() + part.size())
    fail(whole, std::string(what) + " '" + std::string(part) + "' is not a number");
  if (value < minimum || value > (1 << 20))
    fail(whole, std::string(what) + " " + std::to_string(value) + " is out of range [" + std::to_string(minimum) + ", 1048576]");
  return value;
}

std::vector<int64_t> parseDims(std::string_view whole, std::string_view part, size_t count, std::string_view what,
                               std::string_view spelling) {
  std::vector<std::string_view> fields = splitText(part, 'x');
  if (fields.size() != count)
    fail(whole, std::string(what) + " '" + std::string(part) + "' needs " + std::to_string(count) + " sizes (" +
                    std::string(spelling) + ")");
  std::vector<int64_t> dims;
  for (std::string_view field : fields) dims.push_back(parseSize(whole, field, what));
  return dims;
}

void parseEpilogue(Workload& workload, std::string_view whole, std::string_view option) {
  if (option == "bias") {
    workload.bias = true;
    return;
  }
  if (option == "relu") {
    workload.relu = true;
    return;
  }
  fail(whole, "unknown option '" + std::string(option) + "' (expected bias or relu)");
}

Workload parseMatMul(std::string_view whole, std::string_view body, bool batched) {
  std::vector<std::string_view> parts = splitText(body, ',');
  Workload w;
  w.kind = batched ? WorkloadKind::BatchMatMul : WorkloadKind::MatMul;
  std::vector<int64_t> dims = batched ? parseDims(whole, parts[0], 4, "shape", "BxMxNxK") : parseDims(whole, parts[0], 3, "shape", "MxNxK");
  if (batched) {
    w.batch = dims[0];
    dims.erase(dims.begin());
  }
  w.m = dims[0], w.n = dims[1], w.k = dims[2];
  for (size_t i = 1; i < parts.size(); ++i) parseEpilogue(w, whole, parts[i]);
  return w;
}

Workload parseConv(std::string_view whole, std::string_view body) {
  std::vector<std::string_view> parts = splitText(body, ',');
  if (parts.size() < 2) fail(whole, "conv2d needs NxCxHxW,OxCxKhxKw[,sS][,pP]");
  Workload w;
  w.kind = WorkloadKind::Conv2d;
  std::vector<int64_t> x = parseDims(whole, parts[0], 4, "input", "NxCxHxW");
  std::vector<int64_t> f = parseDims(whole, parts[1], 4, "weight", "OxCxKhxKw");
  w.convN = x[0], w.convC = x[1], w.height = x[2], w.width = x[3];
  w.outChannels = f[0], w.kernelH = f[2], w.kernelW = f[3];
  if (f[1] != x[1])
    fail(whole, "weight has " + std::to_string(f[1]) + " input channels but the input has " + std::to_string(x[1]) +
                    " (grouped convolution is not tunable)");
  bool sawStride = false, sawPad = false;
  for (size_t i = 2; i < parts.size(); ++i) {
    std::string_view option = parts[i];
    if (!option.empty() && option[0] == 's' && option != "s") {
      if (sawStride) fail(whole, "stride given twice");
      w.stride = parseSize(whole, option.substr(1), "stride"), sawStride = true;
      continue;
    }
    if (!option.empty() && option[0] == 'p' && option != "p") {
      if (sawPad) fail(whole, "padding given twice");
      w.pad = parseSize(whole, option.substr(1), "padding", 0), sawPad = true;
      continue;
    }
    parseEpilogue(w, whole, option);
  }
  if (w.height + 2 * w.pad < w.kernelH || w.width + 2 * w.pad < w.kernelW)
    fail(whole, "the kernel " + std::to_string(w.kernelH) + "x" + std::to_string(w.kernelW) + " is larger than the padded input");
  if (w.pad >= w.kernelH || w.pad >= w.kernelW) fail(whole, "padding " + std::to_string(w.pad) + " must be smaller than the kernel");
  return w;
}

} // namespace

Workload parseWorkload(std::string_view text) {
  size_t colon = text.find(':');
  if (colon == std::string_view::npos)
    fail(text, "expected KIND:SHAPE, e.g. matmul:512x512x512, bmm:8x128x128x64 or conv2d:1x64x56x56,64x64x3x3,s1,p1");
  std::string_view kind = text.substr(0, colon), body = text.substr(colon + 1);
  if (kind == "matmul") return parseMatMul(text, body, false);
  if (kind == "bmm") return parseMatMul(text, body, true);
  if (kind == "conv2d") return parseConv(text, body);
  fail(text, "unknown kind '" + std::string(kind) + "' (expected matmul, bmm or conv2d)");
}

std::vector<std::vector<int64_t>> Workload::inputShapes() const {
  std::vector<std::vector<int64_t>> shapes;
  switch (kind) {
  case WorkloadKind::MatMul: shapes = {{m, k}, {k, n}}; break;
  case WorkloadKind::BatchMatMul: shapes = {{batch, m, k}, {batch, k, n}}; break;
  case WorkloadKind::Conv2d: shapes = {{convN, convC, height, width}, {outChannels, convC, kernelH, kernelW}}; break;
  }
  if (bias) shapes.push_back({kind == WorkloadKind::Conv2d ? outChannels : n});
  return shapes;
}

std::vector<int64_t> Workload::outputShape() const {
  switch (kind) {
  case WorkloadKind::MatMul: return {m, n};
  case WorkloadKind::BatchMatMul: return {batch, m, n};
  case WorkloadKind::Conv2d: return {convN, outChannels, outHeight(), outWidth()};
  }
  return {};
}

double Workload::flops() const {
  if (kind == WorkloadKind::Conv2d)
    return 2.0 * double(convN) * double(outChannels) * double(outHeight()) * double(outWidth()) * double(convC) *
           double(kernelH) * double(kernelW);
  return 2.0 * double(batch) * double(m) * double(n) * double(k);
}

std::string Workload::key() const {
  auto s = [](int64_t v) { return std::to_string(v); };
  std::string text;
  switch (kind) {
  case WorkloadKind::MatMul: text = "matmul:" + s(m) + "x" + s(n) + "x" + s(k); break;
  case WorkloadKind::BatchMatMul: text = "bmm:" + s(batch) + "x" + s(m) + "x" + s(n) + "x" + s(k); break;
  case WorkloadKind::Conv2d:
    text = "conv2d:" + s(convN) + "x" + s(convC) + "x" + s(height) + "x" + s(width) + "," + s(outChannels) + "x" + s(convC) +
           "x" + s(kernelH) + "x" + s(kernelW) + ",s" + s(stride) + ",p" + s(pad);
    break;
  }
  if (bias) text += ",bias";
  if (relu) text += ",relu";
  return text;
}

} // namespace tessera::tune
