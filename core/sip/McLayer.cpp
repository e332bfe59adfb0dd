// Parsing and assembling x86 assembly with LLVM's MC layer, for this machine's CPU and features.
#include "sip/McLayer.h"

#include "support/Error.h"
#include "tune/LlvmBuilder.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/MC/MCAsmBackend.h>
#include <llvm/MC/MCAsmInfo.h>
#include <llvm/MC/MCCodeEmitter.h>
#include <llvm/MC/MCContext.h>
#include <llvm/MC/MCInst.h>
#include <llvm/MC/MCInstrDesc.h>
#include <llvm/MC/MCInstrInfo.h>
#include <llvm/MC/MCObjectFileInfo.h>
#include <llvm/MC/MCObjectWriter.h>
#include <llvm/MC/MCParser/MCAsmParser.h>
#include <llvm/MC/MCParser/MCTargetAsmParser.h>
#include <llvm/MC/MCRegisterInfo.h>
#include <llvm/MC/MCStreamer.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/MCTargetOptions.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <memory>
#include <mutex>

namespace tessera::sip {

namespace {

// The MC layer's descriptions of this machine, made once.
struct Machine {
  std::string triple;
  const llvm::Target* target = nullptr;
  llvm::MCTargetOptions options;
  std::unique_ptr<llvm::MCRegisterInfo> registers;
  std::unique_ptr<llvm::MCAsmInfo> asmInfo;
  std::unique_ptr<llvm::MCInstrInfo> instructions;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget;
};

const Machine& machine() {
  static std::once_flag once;
  static Machine m;
  static std::string error;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmParser();
    llvm::InitializeNativeTargetAsmPrinter();
    m.triple = llvm::sys::getProcessTriple();
    m.target = llvm::TargetRegistry::lookupTarget(m.triple, error);
    if (!m.target) return;
    m.registers.reset(m.target->createMCRegInfo(m.triple));
    m.asmInfo.reset(m.target->createMCAsmInfo(*m.registers, m.triple, m.options));
    m.instructions.reset(m.target->createMCInstrInfo());
    m.subtarget.reset(m.target->createMCSubtargetInfo(m.triple, llvm::sys::getHostCPUName(), tune::llvmHostFeatures()));
  });
  if (!m.target || !m.asmInfo || !m.subtarget || !m.target->hasMCAsmParser())
    throw Error("LLVM's MC layer has no assembler for this machine (" + m.triple + "): " + error);
  return m;
}

// One parse of `assembly` into the streamer `makeStreamer` returns; the messages, empty on success.
template <typename MakeStreamer>
std::string parse(const std::string& assembly, MakeStreamer makeStreamer, llvm::SourceMgr& sources) {
  const Machine& m = machine();
  std::string messages;
  sources.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(assembly, "kernel.s"), llvm::SMLoc());
  sources.setDiagHandler(
      [](const llvm::SMDiagnostic& diagnostic, void* out) {
        llvm::raw_string_ostream stream(*static_cast<std::string*>(out));
        diagnostic.print("kernel.s", stream, false, false);
      },
      &messages);
  llvm::MCContext context(llvm::Triple(m.triple), m.asmInfo.get(), m.registers.get(), m.subtarget.get(), &sources, &m.options);
  context.setDiagnosticHandler([&messages](const llvm::SMDiagnostic& diagnostic, bool, const llvm::SourceMgr&,
                                           std::vector<const llvm::MDNode*>&) {
    llvm::raw_string_ostream stream(messages);
    diagnostic.print("kernel.s", stream, false, false);
  });
  std::unique_ptr<llvm::MCObjectFileInfo> files(m.target->createMCObjectFileInfo(context, /*PIC=*/true));
  context.setObjectFileInfo(files.get());
  std::unique_ptr<llvm::MCStreamer> streamer = makeStreamer(context);
  if (!streamer) return "the MC layer cannot make an object streamer for " + m.triple;
  std::unique_ptr<llvm::MCAsmParser> parser(llvm::createMCAsmParser(sources, context, *streamer, *m.asmInfo));
  std::unique_ptr<llvm::MCTargetAsmParser> targetParser(m.target->createMCAsmParser(*m.subtarget, *parser, *m.instructions, m.options));
  if (!targetParser) return "the MC layer has no x86 assembly parser";
  parser->setTargetParser(*targetParser);
  const bool failed = parser->Run(/*NoInitialTextSection=*/false);
  if ((failed || context.hadError()) && messages.empty()) messages = "the MC layer rejected the assembly";
  return failed || context.hadError() ? messages : std::string();
}

int registerWidth(const char* name) {
  const std::string_view n(name ? name : "");
  if (n.starts_with("ZMM")) return 64;
  if (n.starts_with("YMM")) return 32;
  if (n.starts_with("XMM")) return 16;
  return 0;
}

std::vector<unsigned> unitsOf(const std::vector<unsigned>& registers, const llvm::MCRegisterInfo& info) {
  std::vector<unsigned> units;
  for (unsigned reg : registers)
    for (llvm::MCRegUnitIterator unit(reg, &info); unit.isValid(); ++unit) units.push_back(*unit);
  std::sort(units.begin(), units.end());
  units.erase(std::unique(units.begin(), units.end()), units.end());
  return units;
}

Instruction describe(const llvm::MCInst& inst, const Machine& m) {
  const llvm::MCInstrDesc& desc = m.instructions->get(inst.getOpcode());
  Instruction result;
  result.opcode = m.instructions->getName(inst.getOpcode()).str();
  result.mayLoad = desc.mayLoad();
  result.mayStore = desc.mayStore();
  result.prefetch = std::string_view(result.opcode).starts_with("PREFETCH");
  result.barrier = desc.isBranch() || desc.isCall() || desc.isReturn() || desc.isTerminator() || desc.isBarrier() ||
                   desc.hasUnmodeledSideEffects();
  std::vector<unsigned> defs, uses;
  int width = 0;
  for (unsigned i = 0; i < inst.getNumOperands(); ++i) {
    const llvm::MCOperand& operand = inst.getOperand(i);
    if (!operand.isReg() || operand.getReg() == 0) continue;
    (i < desc.getNumDefs() ? defs : uses).push_back(operand.getReg());
    width = std::max(width, registerWidth(m.registers->getName(operand.getReg())));
  }
  for (const llvm::MCPhysReg* r = desc.getImplicitDefs(); r && *r; ++r) defs.push_back(*r);
  for (const llvm::MCPhysReg* r = desc.getImplicitUses(); r && *r; ++r) uses.push_back(*r);
  result.defs = unitsOf(defs, *m.registers);
  result.uses = unitsOf(uses, *m.registers);
  // x86 memory operands are five MC operands: base, scale, index, displacement, segment.
  for (unsigned i = 0; i + 4 < inst.getNumOperands() && i < desc.getNumOperands(); ++i) {
    if (desc.OpInfo[i].OperandType != llvm::MCOI::OPERAND_MEMORY) continue;
    Address address;
    address.base = inst.getOperand(i).isReg() ? inst.getOperand(i).getReg() : 0;
    address.scale = inst.getOperand(i + 1).isImm() ? inst.getOperand(i + 1).getImm() : 1;
    address.index = inst.getOperand(i + 2).isReg() ? inst.getOperand(i + 2).getReg() : 0;
    const llvm::MCOperand& displacement = inst.getOperand(i + 3);
    int64_t value = 0;
    if (displacement.isImm()) address.displacement = displacement.getImm();
    else if (displacement.isExpr() && displacement.getExpr()->evaluateAsAbsolute(value)) address.displacement = value;
    address.segment = inst.getOperand(i + 4).isReg() ? inst.getOperand(i + 4).getReg() : 0;
    address.width = width > 0 ? width : 8;
    result.address = address;
    break;
  }
  result.movable = (result.mayLoad || result.mayStore) && !result.barrier && (width > 0 || result.prefetch);
  return result;
}

// Describes each instruction the parser emits, with its line (while the context its operands'
// expressions live in exists); everything else (sections, labels, data) is dropped.
class RecordingStreamer final : public llvm::MCStreamer {
public:
  RecordingStreamer(llvm::MCContext& context, const llvm::SourceMgr& sources, std::vector<ParsedInstruction>& out)
      : MCStreamer(context), sources_(sources), out_(out) {}
  void emitInstruction(const llvm::MCInst& inst, const llvm::MCSubtargetInfo&) override {
    if (!inst.getLoc().isValid()) throw Error("the MC layer parsed an instruction with no source location");
    out_.push_back({sources_.FindLineNumber(inst.getLoc()) - 1, describe(inst, machine())});
  }
  bool emitSymbolAttribute(llvm::MCSymbol*, llvm::MCSymbolAttr) override { return true; }
  void emitCommonSymbol(llvm::MCSymbol*, uint64_t, unsigned) override {}
  void emitZerofill(llvm::MCSection*, llvm::MCSymbol* = nullptr, uint64_t = 0, unsigned = 0, llvm::SMLoc = llvm::SMLoc()) override {}

private:
  const llvm::SourceMgr& sources_;
  std::vector<ParsedInstruction>& out_;
};

} // namespace

std::vector<ParsedInstruction> parseInstructions(const std::string& assembly) {
  llvm::SourceMgr sources;
  std::vector<ParsedInstruction> result;
  const std::string error = parse(
      assembly, [&](llvm::MCContext& context) { return std::make_unique<RecordingStreamer>(context, sources, result); }, sources);
  if (!error.empty()) throw Error("cannot parse the kernel's assembly: " + error.substr(0, 2000));
  return result;
}

AssembledObject assembleObject(const std::string& assembly) {
  AssembledObject result;
  try {
    const Machine& m = machine();
    llvm::SmallString<0> bytes;
    llvm::raw_svector_ostream out(bytes);
    llvm::SourceMgr sources;
    result.error = parse(
        assembly,
        [&](llvm::MCContext& context) -> std::unique_ptr<llvm::MCStreamer> {
          std::unique_ptr<llvm::MCCodeEmitter> emitter(m.target->createMCCodeEmitter(*m.instructions, *m.registers, context));
          std::unique_ptr<llvm::MCAsmBackend> backend(m.target->createMCAsmBackend(*m.subtarget, *m.registers, m.options));
          if (!emitter || !backend) return nullptr;
          std::unique_ptr<llvm::MCObjectWriter> writer = backend->createObjectWriter(out);
          return std::unique_ptr<llvm::MCStreamer>(m.target->createMCObjectStreamer(
              llvm::Triple(m.triple), context, std::move(backend), std::move(writer), std::move(emitter), *m.subtarget,
              /*RelaxAll=*/false, /*IncrementalLinkerCompatible=*/false, /*DWARFMustBeAtTheEnd=*/false));
        },
        sources);
    if (result.error.empty()) result.bytes.assign(bytes.begin(), bytes.end());
    if (result.error.empty() && result.bytes.empty()) result.error = "the MC layer wrote an empty object";
  } catch (const Error& e) {
    result.error = e.what();
  }
  return result;
}

} // namespace tessera::sip
