// PACT'24's table of results, transcribed from the paper (see ../shared/reference/README.md).
#include "PublishedResults.h"

#include <array>

namespace tessera::cli {

namespace {

constexpr std::array<PublishedResult, 9> kPact24{{
    {"bert", 22.35, 14.03, 33.71, 2.05, 60.6, 1170.6},
    {"inception_v3", 18.34, 18.94, 17.06, 2.84, 6.2, 7.4},
    {"mobilenet_v2", -0.68, 0.96, 0.12, 3.40, 357.8, 2106.2},
    {"nasnet_a", 17.83, 23.14, 23.38, 1.46, 466.0, 403.2},
    {"nasrnn", 10.22, 18.93, 18.74, 12.81, 174.0, 1218.4},
    {"resnet50", 0.31, 0.78, 0.66, 4.72, 16.8, 16.0},
    {"resnext50", 27.11, 28.43, 28.86, 4.82, 145.2, 296.0},
    {"squeezenet", 29.74, 33.17, 32.67, 7.47, 365.0, 5544.4},
    {"vgg19", 12.48, 13.03, 11.96, 0.28, 1.0, 2.2},
}};

} // namespace

const PublishedResult* pact24Result(std::string_view model) {
  for (const PublishedResult& result : kPact24)
    if (result.model == model) return &result;
  return nullptr;
}

} // namespace tessera::cli
