// Training episodes over a set of models: episode i rewrites model i mod n from its original
// graph, in one RewriteEnvironment.
#pragma once

#include "rl/RewriteEnvironment.h"

#include <cassert>

#include <string>
#include <utility>
#include <vector>

namespace tessera {

struct NamedGraph {
  std::string name;
  Graph graph;
};

class GraphEpisodes final : public EpisodeSource {
public:
  GraphEpisodes(std::vector<NamedGraph> models, std::span<const Rule* const> rules, CostModel& cost,
                RewriteEnvironmentOptions options)
      : models_(std::move(models)), environment_(rules, cost, std::move(options)) {}

  Environment& begin(int episode) override {
    assert(!models_.empty() && "episodes need a model");
    environment_.reset(models_[static_cast<size_t>(episode) % models_.size()].graph);
    return environment_;
  }
  std::string label(int episode) const override { return models_[static_cast<size_t>(episode) % models_.size()].name; }
  const std::vector<NamedGraph>& models() const { return models_; }
  RewriteEnvironment& environment() { return environment_; }

private:
  std::vector<NamedGraph> models_;
  RewriteEnvironment environment_;
};

} // namespace tessera
