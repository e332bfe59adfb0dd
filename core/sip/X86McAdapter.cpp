// The CPU's native-code adapter: parseListing and assembleObject behind NativeCodeAdapter.
#include "sip/NativeCode.h"

namespace tessera::sip {

namespace {

class X86McAdapter final : public NativeCodeAdapter {
public:
  std::string name() const override { return "x86-64 (LLVM MC)"; }
  std::string unavailableReason() const override { return {}; }
  Listing listing(const std::string& nativeText) const override { return parseListing(nativeText); }
  AssembledObject assemble(const std::string& text) const override { return assembleObject(text); }
};

} // namespace

std::unique_ptr<NativeCodeAdapter> x86McAdapter() { return std::make_unique<X86McAdapter>(); }

} // namespace tessera::sip
