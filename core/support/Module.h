// Parts of Tessera built as shared modules and loaded on first use (the RL agents, which need
// libtorch; LLVM code generation), so a program that never uses them does not pay for loading
// those libraries and running their static initialisers. Module NAME is the file
// libtessera_NAME.so in the `modules` folder of a plugin directory (support/PluginSearchPath.h).
#pragma once

#include <string>
#include <vector>

namespace tessera {

class Module {
public:
  // The module, loaded on first use and never unloaded (what it registers points into its code);
  // it runs its `tessera_module_init` function, when it has one, once. Throws tessera::Error
  // naming the module, the directories searched, and why it is missing or failed to load.
  static const Module& load(const std::string& name);
  // The file load() would open, without loading it (a cheap check that the module is there), or
  // empty when no folder of the search path has it.
  static std::string find(const std::string& name);
  // The folders searched, in order: `modules` in each plugin directory, then, for a program of
  // the build tree with no plugins beside it (a test program), the build's own.
  static std::vector<std::string> searchPath();
  static std::string fileName(const std::string& name); // libtessera_NAME.so
  struct Found {
    std::string name, file;
  };
  // Every module on the search path, by name, each the file load() would open (`tessera-cli plugins`).
  static std::vector<Found> available();

  const std::string& name() const { return name_; }
  const std::string& file() const { return file_; }
  // An exported function of the module; throws tessera::Error naming the module and the symbol
  // when it has none.
  template <class Function>
  Function* function(const char* symbol) const {
    return reinterpret_cast<Function*>(address(symbol));
  }

  Module(std::string name, std::string file, void* handle) : name_(std::move(name)), file_(std::move(file)), handle_(handle) {}

private:
  void* address(const char* symbol) const;
  std::string name_;
  std::string file_;
  void* handle_ = nullptr;
};

} // namespace tessera
