// Finds and loads backend plugins: every library in $TESSERA_PLUGIN_PATH (colon-separated
// directories, searched first) and in the `plugins` directory next to the executable. Each file
// tried is recorded with what happened, so `tessera-cli plugins` can say why one did not load.
// The header is free of Qt; the implementation uses QPluginLoader.
#pragma once

#include "Backend.h"
#include "KernelTuner.h"

#include "support/PluginSearchPath.h"

#include <string>
#include <vector>

namespace tessera::plugins {

using tessera::PluginDirectory; // support/PluginSearchPath.h: where plugins and modules are found

struct PluginRecord {
  std::string file;
  std::string name;        // the backend's name when loaded ("cpu"), else empty
  bool loaded = false;
  bool available = false;  // loaded and its device usable
  std::string device;      // when available
  std::string problem;     // why it did not load, or why its device is unavailable
};

class PluginHost {
public:
  // Scans `directories` in order; a backend name seen twice keeps the first.
  explicit PluginHost(const std::vector<PluginDirectory>& directories);
  ~PluginHost();
  PluginHost(const PluginHost&) = delete;
  PluginHost& operator=(const PluginHost&) = delete;

  // $TESSERA_PLUGIN_PATH's entries, then <directory of the running executable>/plugins
  // (pluginSearchPath(), which the modules of support/Module.h share).
  static std::vector<PluginDirectory> defaultSearchPath();
  // The process-wide host over defaultSearchPath(), loaded on first use and never unloaded (profilers and executors
  // made by a plugin keep pointing into its code).
  static PluginHost& global();

  const std::vector<PluginDirectory>& directories() const { return directories_; }
  const std::vector<PluginRecord>& plugins() const { return records_; }
  // A loaded backend by name, or nullptr. It may still be unavailable (see its record).
  Backend* backend(const std::string& name) const;
  // The kernel tuner the loaded backend `name` also implements, or nullptr.
  KernelTuner* kernelTuner(const std::string& name) const;
  // Why `name` cannot be used: not found (with the directories searched), failed to load, or its
  // device unavailable. Empty when it can.
  std::string whyUnusable(const std::string& name) const;

private:
  struct Loaded;
  std::vector<PluginDirectory> directories_;
  std::vector<PluginRecord> records_;
  std::vector<Loaded> loaded_;
};

} // namespace tessera::plugins
