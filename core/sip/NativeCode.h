// Where SIP meets a machine's native code: an adapter reads a compiled kernel's native code as a
// listing (instructions with the facts the legality masks need, in basic blocks) and assembles an
// edited listing back into a loadable object. The CPU's adapter is LLVM's MC layer for x86
// (x86McAdapter). A GPU adapter would wrap a SASS assembler for the device's architecture; there
// is none today (README.md in this folder says why), and Tessera does not fake one.
#pragma once

#include "sip/Listing.h"
#include "sip/McLayer.h"

#include <memory>
#include <string>

namespace tessera::sip {

class NativeCodeAdapter {
public:
  virtual ~NativeCodeAdapter() = default;
  // What it reads and writes, e.g. "x86-64 (LLVM MC)"; a SASS adapter would name its sm_ version.
  virtual std::string name() const = 0;
  // Empty when usable here; else why not (no assembler for this architecture, a missing tool).
  virtual std::string unavailableReason() const = 0;
  // The kernel's native code as text (x86: the assembly LLVM printed; SASS: a disassembled cubin's
  // .text) parsed into a listing. Throws tessera::Error for text it cannot read.
  virtual Listing listing(const std::string& nativeText) const = 0;
  // A listing's text (Listing::render) assembled into an object the target's runner loads (x86:
  // an ELF object to link; SASS: a cubin with the original's ELF layout and symbols). Bad text is
  // a failed object with the assembler's message, never an exception.
  virtual AssembledObject assemble(const std::string& text) const = 0;
};

// LLVM's MC layer for this machine's x86-64 CPU and features.
std::unique_ptr<NativeCodeAdapter> x86McAdapter();

} // namespace tessera::sip
