#include "support/Module.h"

#include "support/Error.h"
#include "support/PluginSearchPath.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>

namespace tessera {

namespace {

// A module's init may load another module: the lock is taken again on the same thread.
std::recursive_mutex modulesMutex;
std::map<std::string, std::unique_ptr<Module>>& loadedModules() {
  static std::map<std::string, std::unique_ptr<Module>> modules;
  return modules;
}

std::string searchedList(const std::vector<std::string>& directories) {
  std::string list;
  for (const std::string& directory : directories) {
    std::error_code ec;
    list += (list.empty() ? "" : ", ") + directory + (std::filesystem::is_directory(directory, ec) ? "" : " (missing)");
  }
  return list.empty() ? std::string("an empty search path") : list;
}

std::unique_ptr<Module> open(const std::string& name) {
  const std::string file = Module::find(name);
  if (file.empty()) throw Error("module '" + name + "' not found: no " + Module::fileName(name) + " in " + searchedList(Module::searchPath()));
  // RTLD_NOW: a symbol the module lacks is an error here, naming it, not a crash later.
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw Error("module '" + name + "' failed to load from " + file + ": " + dlerror());
  auto module = std::make_unique<Module>(name, file, handle);
  if (auto* init = reinterpret_cast<void (*)()>(dlsym(handle, "tessera_module_init"))) {
    try {
      init();
    } catch (const std::exception& e) {
      throw Error("module '" + name + "' (" + file + ") failed to start: " + e.what());
    }
  }
  return module;
}

} // namespace

std::string Module::fileName(const std::string& name) { return "libtessera_" + name + ".so"; }

std::vector<std::string> Module::searchPath() {
  std::vector<std::string> directories;
  [[maybe_unused]] bool besideExecutable = false;
  for (const PluginDirectory& directory : pluginSearchPath()) {
    directories.push_back((std::filesystem::path(directory.path) / "modules").string());
    if (directory.origin == "next to the executable" && directory.exists) besideExecutable = true;
  }
#ifdef TESSERA_BUILD_MODULE_DIR
  if (!besideExecutable) directories.push_back(TESSERA_BUILD_MODULE_DIR);
#endif
  return directories;
}

std::string Module::find(const std::string& name) {
  for (const std::string& directory : searchPath()) {
    const std::string file = (std::filesystem::path(directory) / fileName(name)).string();
    std::error_code ec;
    if (std::filesystem::exists(file, ec)) return file;
  }
  return {};
}

std::vector<Module::Found> Module::available() {
  const std::string prefix = "libtessera_", suffix = ".so";
  std::map<std::string, std::string> found; // the first folder's file of a name wins, as in find()
  for (const std::string& directory : searchPath()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(directory, ec)) {
      const std::string file = entry.path().filename().string();
      if (file.size() <= prefix.size() + suffix.size() || file.rfind(prefix, 0) != 0 || !file.ends_with(suffix)) continue;
      found.try_emplace(file.substr(prefix.size(), file.size() - prefix.size() - suffix.size()), entry.path().string());
    }
  }
  std::vector<Found> modules;
  for (const auto& [name, file] : found) modules.push_back({name, file});
  return modules;
}

const Module& Module::load(const std::string& name) {
  std::lock_guard lock(modulesMutex);
  std::unique_ptr<Module>& module = loadedModules()[name];
  if (!module) {
    try {
      module = open(name);
    } catch (...) {
      loadedModules().erase(name);
      throw;
    }
  }
  return *module;
}

void* Module::address(const char* symbol) const {
  dlerror();
  void* address = dlsym(handle_, symbol);
  if (!address) throw Error("module '" + name_ + "' (" + file_ + ") has no function " + symbol);
  return address;
}

} // namespace tessera
