#include "PluginHost.h"

#include "BackendInterface.h"
#include "KernelTunerInterface.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>

#include <algorithm>
#include <exception>
#include <filesystem>
#include <memory>

namespace tessera::plugins {

struct PluginHost::Loaded {
  std::unique_ptr<QPluginLoader> loader;
  Backend* backend = nullptr;
  KernelTuner* kernelTuner = nullptr; // the same plugin object, when it implements one
  std::string name;
};

namespace {

std::vector<std::string> librariesIn(const std::string& directory) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
    const std::string path = entry.path().string();
    if (entry.is_regular_file(ec) && QLibrary::isLibrary(QString::fromStdString(path))) files.push_back(path);
  }
  std::sort(files.begin(), files.end()); // a stable order, so "first one wins" means something
  return files;
}

// Calls into a plugin may throw anything; the host reports it instead of dying.
template <class F>
std::string guarded(F call) {
  try {
    call();
    return {};
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "unknown exception";
  }
}

} // namespace

PluginHost::PluginHost(const std::vector<PluginDirectory>& directories) : directories_(directories) {
  for (const PluginDirectory& directory : directories_) {
    if (!directory.exists) continue;
    for (const std::string& file : librariesIn(directory.path)) {
      PluginRecord record;
      record.file = file;
      auto loader = std::make_unique<QPluginLoader>(QString::fromStdString(file));
      // Reads the plugin's metadata section without running any of its code.
      const QJsonObject metaData = loader->metaData();
      if (metaData.isEmpty()) {
        record.problem = "not a Qt plugin (" + loader->errorString().toStdString() + ")";
        records_.push_back(std::move(record));
        continue;
      }
      const std::string iid = metaData.value("IID").toString().toStdString();
      if (iid != TESSERA_BACKEND_IID) {
        record.problem = iid.rfind(TESSERA_BACKEND_IID_PREFIX, 0) == 0
                             ? "built for plugin interface " + iid + ", this program needs " TESSERA_BACKEND_IID " (rebuild the plugin)"
                             : "implements interface '" + iid + "', not a Tessera backend (" TESSERA_BACKEND_IID ")";
        records_.push_back(std::move(record));
        continue;
      }
      QObject* instance = loader->instance();
      // The host may be first used from a worker (the GUI discovers plugins off its UI thread):
      // the plugin's root object belongs with the application, not with a pool thread.
      if (instance && QCoreApplication::instance()) instance->moveToThread(QCoreApplication::instance()->thread());
      Backend* backend = instance ? qobject_cast<Backend*>(instance) : nullptr;
      if (!backend) {
        record.problem = instance ? "its root object does not implement " TESSERA_BACKEND_IID
                                  : "failed to load: " + loader->errorString().toStdString();
        records_.push_back(std::move(record));
        continue;
      }
      std::string name;
      if (std::string failure = guarded([&] { name = backend->name(); }); !failure.empty()) {
        record.problem = "failed to start: " + failure;
        records_.push_back(std::move(record));
        continue;
      }
      if (Backend* earlier = this->backend(name)) {
        (void)earlier;
        auto first = std::find_if(records_.begin(), records_.end(), [&](const PluginRecord& r) { return r.loaded && r.name == name; });
        record.problem = "backend '" + name + "' is already loaded from " + first->file + "; this copy is ignored";
        records_.push_back(std::move(record));
        continue;
      }
      record.name = name;
      record.loaded = true;
      std::string reason;
      std::string failure = guarded([&] {
        reason = backend->unavailableReason();
        if (reason.empty()) record.device = backend->device();
      });
      record.problem = failure.empty() ? reason : "device check failed: " + failure;
      record.available = record.problem.empty();
      records_.push_back(std::move(record));
      loaded_.push_back({std::move(loader), backend, qobject_cast<KernelTuner*>(instance), name});
    }
  }
}

PluginHost::~PluginHost() = default;

std::vector<PluginDirectory> PluginHost::defaultSearchPath() { return pluginSearchPath(); }

PluginHost& PluginHost::global() {
  static PluginHost host(defaultSearchPath());
  return host;
}

Backend* PluginHost::backend(const std::string& name) const {
  for (const Loaded& loaded : loaded_)
    if (loaded.name == name) return loaded.backend;
  return nullptr;
}

KernelTuner* PluginHost::kernelTuner(const std::string& name) const {
  for (const Loaded& loaded : loaded_)
    if (loaded.name == name) return loaded.kernelTuner;
  return nullptr;
}

std::string PluginHost::whyUnusable(const std::string& name) const {
  for (const PluginRecord& record : records_)
    if (record.loaded && record.name == name) return record.available ? std::string() : record.problem;
  std::string searched;
  for (const PluginDirectory& directory : directories_)
    searched += (searched.empty() ? "" : ", ") + directory.path + (directory.exists ? "" : " (missing)");
  std::string failures;
  for (const PluginRecord& record : records_)
    if (!record.loaded) failures += "; " + record.file + ": " + record.problem;
  return "no '" + name + "' backend plugin in " + (searched.empty() ? std::string("an empty search path") : searched) + failures;
}

} // namespace tessera::plugins
