// LLVM IR generation from the loop nest (the IR builder's module, printed).
#include "tune/CodegenLlvm.h"

#include "tune/CodegenC.h"
#include "tune/CodegenText.h"

#include "support/Error.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <optional>

namespace tessera::tune {

namespace {

using llvm::BasicBlock;
using llvm::Function;
using llvm::Value;

// A tile loop this long or shorter becomes one vector operation; a longer one stays a loop that
// LLVM's loop vectorizer is asked to vectorize.
constexpr int64_t kMaxVectorLanes = 64;

class IrEmitter {
public:
  explicit IrEmitter(const LoopNest& nest)
      : nest_(nest), c_(nest.compute), module_("tessera_kernel", context_), b_(context_) {
    tile_ = nest.tileExtents();
    regTile_ = nest.registerTileExtents();
    regCoeff_ = rowMajorCoefficients(c_, regTile_);
    accCoeff_ = rowMajorCoefficients(c_, tile_);
    f32_ = b_.getFloatTy();
    i64_ = b_.getInt64Ty();
    floatPtr_ = f32_->getPointerTo();
    bytePtr_ = b_.getInt8PtrTy();
    for (const Loop& loop : nest.loops)
      if (isGpuBinding(loop.annotation))
        throw Error("LLVM code generation: loop " + loop.name + " is bound to " + gpuBindingName(loop.annotation) +
                    " (a GPU schedule: lower it with generateCuda)");
    if (!nest.loops.empty() && nest.loops.back().annotation == LoopAnnotation::Vectorized)
      vectorLoop_ = static_cast<int>(nest.loops.size()) - 1;
  }

  std::string run() {
    Function* body = emitBody();
    Function* epilogue = nest_.hasEpilogue() && nest_.epilogue == EpiloguePlacement::Root ? emitRootEpilogue() : nullptr;
    emitKernel(body, epilogue);
    std::string error;
    llvm::raw_string_ostream errors(error);
    if (llvm::verifyModule(module_, &errors)) throw Error("LLVM code generation produced an invalid module: " + errors.str());
    std::string text;
    llvm::raw_string_ostream out(text);
    module_.print(out, nullptr);
    return out.str();
  }

private:
  // --- functions -------------------------------------------------------------------------------

  Function* declare(const char* name, llvm::Type* result, llvm::ArrayRef<llvm::Type*> params, bool internal) {
    auto* type = llvm::FunctionType::get(result, params, false);
    Function* f = Function::Create(type, internal ? Function::InternalLinkage : Function::ExternalLinkage, name, module_);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    return f;
  }

  // The nest from its first non-parallel loop, for the collapsed parallel iterations [begin, end):
  //   body(lhs, rhs, bias, out, begin, end); without parallel loops, the whole nest.
  Function* emitBody() {
    Function* f = declare("tessera_body", b_.getVoidTy(), {floatPtr_, floatPtr_, floatPtr_, floatPtr_, i64_, i64_}, true);
    for (unsigned i = 0; i < 4; ++i) f->addParamAttr(i, llvm::Attribute::NoAlias);
    b_.SetInsertPoint(BasicBlock::Create(context_, "entry", f));
    auto arg = f->arg_begin();
    lhs_ = &*arg++;
    rhs_ = &*arg++;
    bias_ = &*arg++;
    out_ = &*arg++;
    Value* begin = &*arg++;
    Value* end = &*arg;
    acc_ = nest_.cacheWriteAt >= 0 ? localTile("acc", nest_.accumulatorElements()) : nullptr;
    reg_ = nest_.registerTileAt >= 0 ? localTile("reg", nest_.registerTileElements()) : nullptr;
    vars_.assign(nest_.loops.size(), nullptr);
    const int parallel = nest_.parallelLoops();
    if (parallel == 0) {
      emitLoop(0);
    } else {
      countedLoop(begin, end, true, false, [&](Value* iteration) {
        for (int i = parallel - 1; i >= 0; --i) {
          const int64_t extent = nest_.loops[i].extent;
          vars_[i] = i == 0 ? iteration : b_.CreateURem(iteration, b_.getInt64(extent));
          if (i > 0) iteration = b_.CreateUDiv(iteration, b_.getInt64(extent));
        }
        emitLoop(parallel);
      });
    }
    b_.CreateRetVoid();
    return f;
  }

  // The epilogue over the whole output, its first loop over [begin, end): epilogue(out, bias, begin, end).
  Function* emitRootEpilogue() {
    Function* f = declare("tessera_epilogue", b_.getVoidTy(), {floatPtr_, floatPtr_, i64_, i64_}, true);
    f->addParamAttr(0, llvm::Attribute::NoAlias);
    f->addParamAttr(1, llvm::Attribute::NoAlias);
    b_.SetInsertPoint(BasicBlock::Create(context_, "entry", f));
    auto arg = f->arg_begin();
    out_ = &*arg++;
    bias_ = &*arg++;
    Value* begin = &*arg++;
    Value* end = &*arg;
    emitTileLoops(spatialExtents(), b_.getInt64(0), b_.getInt64(0), false, std::make_pair(begin, end));
    b_.CreateRetVoid();
    return f;
  }

  std::vector<int64_t> spatialExtents() const {
    std::vector<int64_t> full(c_.axes.size(), 1);
    for (int a = 0; a < c_.spatialAxes(); ++a) full[a] = c_.axes[a].extent;
    return full;
  }

  // The first loop the root epilogue runs over (the outermost spatial axis longer than 1).
  int64_t epilogueFirstExtent() const {
    for (int a = 0; a < c_.spatialAxes(); ++a)
      if (c_.axes[a].extent != 1) return c_.axes[a].extent;
    return 1;
  }

  // void worker(i8* context): this thread's static share of [0, total), as GCC's schedule(static)
  // divides it, then calls `call` with the context's pointers and the share.
  Function* emitWorker(const char* name, int64_t total, const std::function<void(Value* const*, Value*, Value*)>& call) {
    Function* f = declare(name, b_.getVoidTy(), {bytePtr_}, true);
    b_.SetInsertPoint(BasicBlock::Create(context_, "entry", f));
    Value* slots = b_.CreateBitCast(&*f->arg_begin(), floatPtr_->getPointerTo());
    Value* pointers[4];
    for (int i = 0; i < 4; ++i) pointers[i] = b_.CreateLoad(floatPtr_, b_.CreateConstInBoundsGEP1_64(floatPtr_, slots, i));
    auto* threadNum = module_.getOrInsertFunction("omp_get_thread_num", b_.getInt32Ty()).getCallee();
    auto* numThreads = module_.getOrInsertFunction("omp_get_num_threads", b_.getInt32Ty()).getCallee();
    auto* intFn = llvm::FunctionType::get(b_.getInt32Ty(), false);
    Value* thread = b_.CreateSExt(b_.CreateCall(intFn, threadNum), i64_);
    Value* threads = b_.CreateSExt(b_.CreateCall(intFn, numThreads), i64_);
    Value* quotient = b_.CreateSDiv(b_.getInt64(total), threads);
    Value* remainder = b_.CreateSRem(b_.getInt64(total), threads);
    Value* takesOneMore = b_.CreateICmpSLT(thread, remainder);
    Value* begin = b_.CreateAdd(b_.CreateMul(thread, quotient), b_.CreateSelect(takesOneMore, thread, remainder));
    Value* end = b_.CreateAdd(b_.CreateAdd(begin, quotient), b_.CreateZExt(takesOneMore, i64_));
    call(pointers, begin, end);
    b_.CreateRetVoid();
    return f;
  }

  void emitKernel(Function* body, Function* epilogue) {
    Function* parallelBody = nest_.parallelLoops() > 0
        ? emitWorker("tessera_body_worker", collapsedExtent(), [&](Value* const* p, Value* begin, Value* end) {
            b_.CreateCall(body, {p[0], p[1], p[2], p[3], begin, end});
          })
        : nullptr;
    Function* parallelEpilogue = epilogue && nest_.parallelLoops() > 0
        ? emitWorker("tessera_epilogue_worker", epilogueFirstExtent(), [&](Value* const* p, Value* begin, Value* end) {
            b_.CreateCall(epilogue, {p[3], p[2], begin, end});
          })
        : nullptr;

    Function* f = declare(kKernelSymbol, b_.getVoidTy(), {floatPtr_->getPointerTo(), floatPtr_}, false);
    f->addParamAttr(1, llvm::Attribute::NoAlias);
    b_.SetInsertPoint(BasicBlock::Create(context_, "entry", f));
    Value* inputs = &*f->arg_begin();
    Value* out = &*(f->arg_begin() + 1);
    auto input = [&](int i) { return b_.CreateLoad(floatPtr_, b_.CreateConstInBoundsGEP1_64(floatPtr_, inputs, i)); };
    Value* lhs = input(0);
    Value* rhs = input(1);
    Value* bias = c_.bias ? input(2) : static_cast<Value*>(llvm::ConstantPointerNull::get(floatPtr_));
    Value* padded = c_.padded ? emitPadding(f, lhs) : nullptr;
    if (padded) lhs = b_.CreateBitCast(padded, floatPtr_);
    if (nest_.cacheWriteAt < 0) b_.CreateMemSet(out, b_.getInt8(0), c_.outputElements * 4, llvm::MaybeAlign(4));

    Value* slots = nullptr;
    if (parallelBody || parallelEpilogue) {
      slots = b_.CreateAlloca(floatPtr_, b_.getInt32(4));
      Value* values[4] = {lhs, rhs, bias, out};
      for (int i = 0; i < 4; ++i) b_.CreateStore(values[i], b_.CreateConstInBoundsGEP1_64(floatPtr_, slots, i));
    }
    auto runParallel = [&](Function* worker) {
      llvm::Type* workerPtr = worker->getType();
      auto callee = module_.getOrInsertFunction("GOMP_parallel", b_.getVoidTy(), workerPtr, bytePtr_, b_.getInt32Ty(), b_.getInt32Ty());
      b_.CreateCall(callee, {worker, b_.CreateBitCast(slots, bytePtr_), b_.getInt32(0), b_.getInt32(0)});
    };
    if (parallelBody) runParallel(parallelBody);
    else b_.CreateCall(body, {lhs, rhs, bias, out, b_.getInt64(0), b_.getInt64(1)});
    if (parallelEpilogue) runParallel(parallelEpilogue);
    else if (epilogue) b_.CreateCall(epilogue, {out, bias, b_.getInt64(0), b_.getInt64(epilogueFirstExtent())});
    if (padded) b_.CreateCall(module_.getOrInsertFunction("free", b_.getVoidTy(), bytePtr_), {padded});
    b_.CreateRetVoid();
  }

  int64_t collapsedExtent() const {
    int64_t total = 1;
    for (int i = 0; i < nest_.parallelLoops(); ++i) total *= nest_.loops[i].extent;
    return total;
  }

  // The zero-padded copy of the conv input (an i8* from aligned_alloc); returns from the kernel
  // when the allocation fails, as the C kernel does.
  Value* emitPadding(Function* kernel, Value* input) {
    const PaddedInput& p = *c_.padded;
    const int64_t ph = p.h + 2 * p.pad, pw = p.w + 2 * p.pad;
    const int64_t bytes = (p.paddedElements() * 4 + 63) / 64 * 64;
    auto allocate = module_.getOrInsertFunction("aligned_alloc", bytePtr_, i64_, i64_);
    Value* padded = b_.CreateCall(allocate, {b_.getInt64(64), b_.getInt64(bytes)});
    BasicBlock* failed = BasicBlock::Create(context_, "no_memory", kernel);
    BasicBlock* copy = BasicBlock::Create(context_, "pad", kernel);
    b_.CreateCondBr(b_.CreateIsNull(padded), failed, copy);
    b_.SetInsertPoint(failed);
    b_.CreateRetVoid();
    b_.SetInsertPoint(copy);
    b_.CreateMemSet(padded, b_.getInt8(0), bytes, llvm::MaybeAlign(64));
    Value* target = b_.CreateBitCast(padded, floatPtr_);
    countedLoop(b_.getInt64(0), b_.getInt64(p.n * p.c), false, false, [&](Value* nc) {
      countedLoop(b_.getInt64(0), b_.getInt64(p.h), false, false, [&](Value* h) {
        Value* to = affine({{ph * pw, nc}, {pw, h}}, (p.pad * pw) + p.pad);
        Value* from = affine({{p.h * p.w, nc}, {p.w, h}}, 0);
        b_.CreateMemCpy(b_.CreateInBoundsGEP(f32_, target, to), llvm::MaybeAlign(4), b_.CreateInBoundsGEP(f32_, input, from),
                        llvm::MaybeAlign(4), p.w * 4);
      });
    });
    return padded;
  }

  // --- the nest --------------------------------------------------------------------------------

  void emitLoop(size_t index) {
    if (static_cast<int>(index) == nest_.cacheWriteAt) {
      zero(acc_, nest_.accumulatorElements());
      emitRegisterTile(index);
      emitTileLoops(tile_, offset(c_.output, 0, index), c_.bias ? offset(*c_.bias, 0, index) : b_.getInt64(0), true, std::nullopt);
      return;
    }
    emitRegisterTile(index);
  }

  void emitRegisterTile(size_t index) {
    if (static_cast<int>(index) != nest_.registerTileAt) {
      emitInner(index);
      return;
    }
    zero(reg_, nest_.registerTileElements());
    emitInner(index);
    // reg += into the accumulator or the output, over the register tile, unrolled.
    const bool intoAcc = nest_.cacheWriteAt >= 0;
    Value* base = b_.getInt64(0);
    for (size_t i = intoAcc ? nest_.cacheWriteAt : 0; i < index; ++i) {
      const Loop& loop = nest_.loops[i];
      if (!c_.axes[loop.axis].reduction)
        base = addTerm(base, (intoAcc ? accCoeff_[loop.axis] : c_.output.coeff[loop.axis]) * loop.stride, vars_[i]);
    }
    std::vector<int> axes;
    for (int a = 0; a < c_.spatialAxes(); ++a)
      if (regTile_[a] != 1) axes.push_back(a);
    Value* target = intoAcc ? acc_ : out_;
    const std::vector<int64_t>& targetCoeff = intoAcc ? accCoeff_ : c_.output.coeff;
    // target += reg for `lanes` elements, `targetLane` and `regLane` apart.
    auto addInto = [&](Value* targetAt, Value* regAt, int64_t targetLane, int64_t regLane, int64_t lanes) {
      Value* sum = b_.CreateFAdd(load(target, targetAt, targetLane, lanes), load(reg_, regAt, regLane, lanes));
      store(target, targetAt, targetLane, sum, lanes);
    };
    if (axes.empty()) { // a one-element tile
      addInto(base, b_.getInt64(0), 0, 0, 1);
      return;
    }
    // Each axis unrolled, the innermost as one vector operation.
    std::function<void(size_t, Value*, Value*)> level = [&](size_t k, Value* targetAt, Value* regAt) {
      const int a = axes[k];
      if (k + 1 == axes.size()) {
        addInto(targetAt, regAt, targetCoeff[a], regCoeff_[a], regTile_[a]);
        return;
      }
      for (int64_t w = 0; w < regTile_[a]; ++w)
        level(k + 1, addTerm(targetAt, targetCoeff[a] * w, nullptr), addTerm(regAt, regCoeff_[a] * w, nullptr));
    };
    level(0, base, b_.getInt64(0));
  }

  void emitInner(size_t index) {
    if (static_cast<int>(index) == vectorLoop_ || index == nest_.loops.size()) {
      emitStatement(index);
      return;
    }
    const Loop& loop = nest_.loops[index];
    if (loop.annotation == LoopAnnotation::Unrolled) {
      for (int64_t step = 0; step < loop.extent; ++step) {
        vars_[index] = b_.getInt64(step);
        emitLoop(index + 1);
      }
      return;
    }
    countedLoop(b_.getInt64(0), b_.getInt64(loop.extent), false, false, [&](Value* v) {
      vars_[index] = v;
      emitLoop(index + 1);
    });
  }

  // target += lhs * rhs at the innermost point; when `index` is the vectorized loop, for all its
  // iterations at once.
  void emitStatement(size_t index) {
    int64_t lanes = 1, lhsLane = 0, rhsLane = 0, targetLane = 0;
    const bool vector = static_cast<int>(index) == vectorLoop_;
    const Loop* loop = vector ? &nest_.loops[index] : nullptr;
    if (vector) {
      vars_[index] = b_.getInt64(0);
      lanes = loop->extent;
      lhsLane = c_.lhs.coeff[loop->axis] * loop->stride;
      rhsLane = c_.rhs.coeff[loop->axis] * loop->stride;
    }
    const size_t end = nest_.loops.size();
    Value* target;
    Value* targetAt;
    if (reg_) {
      target = reg_;
      targetAt = localOffset(nest_.registerTileAt, regCoeff_);
      if (vector) targetLane = regCoeff_[loop->axis] * loop->stride;
    } else if (acc_) {
      target = acc_;
      targetAt = localOffset(nest_.cacheWriteAt, accCoeff_);
      if (vector) targetLane = accCoeff_[loop->axis] * loop->stride;
    } else {
      target = out_;
      targetAt = offset(c_.output, 0, end);
      if (vector) targetLane = c_.output.coeff[loop->axis] * loop->stride;
    }
    Value* sum = b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {vectorType(lanes)},
                                    {load(lhs_, offset(c_.lhs, 0, end), lhsLane, lanes), load(rhs_, offset(c_.rhs, 0, end), rhsLane, lanes),
                                     load(target, targetAt, targetLane, lanes)});
    store(target, targetAt, targetLane, sum, lanes);
  }

  // Loops over the spatial axes whose extent is not 1 (the tile, or the whole output), the last of
  // them as one vector operation when it is short; `firstRange`: the first loop runs over
  // [begin, end) only (a thread's share of the root epilogue).
  void emitTileLoops(const std::vector<int64_t>& extents, Value* outBase, Value* biasBase, bool fromAccumulator,
                     std::optional<std::pair<Value*, Value*>> firstRange) {
    std::vector<int> axes;
    for (int a = 0; a < c_.spatialAxes(); ++a)
      if (extents[a] != 1) axes.push_back(a);
    const std::vector<int64_t> noBias(c_.axes.size(), 0);
    const std::vector<int64_t>& biasCoeff = c_.bias ? c_.bias->coeff : noBias;
    auto statement = [&](Value* outAt, Value* accAt, Value* biasAt, int a, int64_t lanes) {
      const int64_t outLane = a < 0 ? 0 : c_.output.coeff[a], accLane = a < 0 ? 0 : accCoeff_[a], biasLane = a < 0 ? 0 : biasCoeff[a];
      Value* value = fromAccumulator ? load(acc_, accAt, accLane, lanes) : load(out_, outAt, outLane, lanes);
      const bool fused = !fromAccumulator || nest_.epilogue == EpiloguePlacement::Inline;
      if (fused && c_.bias) value = b_.CreateFAdd(value, load(bias_, biasAt, biasLane, lanes));
      if (fused && c_.relu) {
        Value* zero = llvm::Constant::getNullValue(vectorType(lanes));
        value = b_.CreateSelect(b_.CreateFCmpOGT(value, zero), value, zero);
      }
      store(out_, outAt, outLane, value, lanes);
    };
    std::function<void(size_t, Value*, Value*, Value*)> level = [&](size_t k, Value* outAt, Value* accAt, Value* biasAt) {
      if (k == axes.size() && k == 0 && firstRange) { // one element: only the thread whose share it is
        countedLoop(firstRange->first, firstRange->second, true, false, [&](Value*) { statement(outAt, accAt, biasAt, -1, 1); });
        return;
      }
      if (k == axes.size()) {
        statement(outAt, accAt, biasAt, -1, 1);
        return;
      }
      const int a = axes[k];
      const bool innermost = k + 1 == axes.size();
      const bool ranged = k == 0 && firstRange.has_value();
      if (innermost && !ranged && extents[a] <= kMaxVectorLanes) {
        statement(outAt, accAt, biasAt, a, extents[a]);
        return;
      }
      Value* begin = ranged ? firstRange->first : b_.getInt64(0);
      Value* end = ranged ? firstRange->second : b_.getInt64(extents[a]);
      countedLoop(begin, end, ranged, innermost, [&](Value* w) {
        level(k + 1, addTerm(outAt, c_.output.coeff[a], w), addTerm(accAt, accCoeff_[a], w), addTerm(biasAt, biasCoeff[a], w));
      });
    };
    level(0, outBase, b_.getInt64(0), biasBase);
  }

  // --- offsets ---------------------------------------------------------------------------------

  // sum of coeff * value + constant.
  Value* affine(std::initializer_list<std::pair<int64_t, Value*>> terms, int64_t constant) {
    Value* sum = b_.getInt64(constant);
    for (const auto& [coeff, value] : terms) sum = addTerm(sum, coeff, value);
    return sum;
  }

  // sum + coeff * value (value null: the constant coeff).
  Value* addTerm(Value* sum, int64_t coeff, Value* value) {
    if (coeff == 0) return sum;
    Value* term = !value ? b_.getInt64(coeff) : coeff == 1 ? value : b_.CreateNSWMul(value, b_.getInt64(coeff));
    return b_.CreateNSWAdd(sum, term);
  }

  // Offset of `access` over the loops in [first, last).
  Value* offset(const Access& access, size_t first, size_t last) {
    Value* sum = b_.getInt64(0);
    for (size_t i = first; i < last; ++i) {
      const Loop& loop = nest_.loops[i];
      sum = addTerm(sum, access.coeff[loop.axis] * loop.stride, vars_[i]);
    }
    return sum;
  }

  // Offset into a local tile laid out by `coeff`, over its spatial loops from `first` on.
  Value* localOffset(int first, const std::vector<int64_t>& coeff) {
    Value* sum = b_.getInt64(0);
    for (size_t i = first; i < nest_.loops.size(); ++i) {
      const Loop& loop = nest_.loops[i];
      if (!c_.axes[loop.axis].reduction) sum = addTerm(sum, coeff[loop.axis] * loop.stride, vars_[i]);
    }
    return sum;
  }

  // --- memory ----------------------------------------------------------------------------------

  llvm::Type* vectorType(int64_t lanes) {
    return lanes == 1 ? static_cast<llvm::Type*>(f32_) : llvm::FixedVectorType::get(f32_, static_cast<unsigned>(lanes));
  }

  // A local tile in the function's entry block (so it becomes registers where it can).
  Value* localTile(const char* name, int64_t elements) {
    llvm::IRBuilderBase::InsertPointGuard guard(b_);
    BasicBlock& entry = b_.GetInsertBlock()->getParent()->getEntryBlock();
    b_.SetInsertPoint(&entry, entry.begin());
    auto* tile = b_.CreateAlloca(llvm::ArrayType::get(f32_, static_cast<uint64_t>(elements)), nullptr, name);
    tile->setAlignment(llvm::Align(64));
    return b_.CreateBitCast(tile, floatPtr_);
  }

  void zero(Value* tile, int64_t elements) { b_.CreateMemSet(tile, b_.getInt8(0), elements * 4, llvm::MaybeAlign(64)); }

  // `lanes` floats at base[at + lane * step]: one load, a broadcast, or a gather of scalars.
  Value* load(Value* base, Value* at, int64_t step, int64_t lanes) {
    auto scalar = [&](Value* index) { return b_.CreateAlignedLoad(f32_, b_.CreateInBoundsGEP(f32_, base, index), llvm::Align(4)); };
    if (lanes == 1) return scalar(at);
    if (step == 0) return b_.CreateVectorSplat(static_cast<unsigned>(lanes), scalar(at));
    if (step == 1) {
      llvm::Type* type = vectorType(lanes);
      return b_.CreateAlignedLoad(type, b_.CreateBitCast(b_.CreateInBoundsGEP(f32_, base, at), type->getPointerTo()), llvm::Align(4));
    }
    Value* vector = llvm::UndefValue::get(vectorType(lanes));
    for (int64_t lane = 0; lane < lanes; ++lane) vector = b_.CreateInsertElement(vector, scalar(addTerm(at, step * lane, nullptr)), lane);
    return vector;
  }

  void store(Value* base, Value* at, int64_t step, Value* value, int64_t lanes) {
    auto scalar = [&](Value* v, Value* index) { b_.CreateAlignedStore(v, b_.CreateInBoundsGEP(f32_, base, index), llvm::Align(4)); };
    if (lanes == 1) return scalar(value, at);
    if (step == 0) throw Error("LLVM code generation: a vector store along an axis its target does not vary with");
    if (step == 1) {
      b_.CreateAlignedStore(value, b_.CreateBitCast(b_.CreateInBoundsGEP(f32_, base, at), vectorType(lanes)->getPointerTo()), llvm::Align(4));
      return;
    }
    for (int64_t lane = 0; lane < lanes; ++lane) scalar(b_.CreateExtractElement(value, lane), addTerm(at, step * lane, nullptr));
  }

  // --- control flow ----------------------------------------------------------------------------

  // for (i = begin; i < end; ++i) body(i). `mayBeEmpty`: test before the first iteration;
  // `vectorize`: ask LLVM's loop vectorizer for it.
  void countedLoop(Value* begin, Value* end, bool mayBeEmpty, bool vectorize, const std::function<void(Value*)>& body) {
    Function* f = b_.GetInsertBlock()->getParent();
    BasicBlock* before = b_.GetInsertBlock();
    BasicBlock* header = BasicBlock::Create(context_, "loop", f);
    BasicBlock* after = BasicBlock::Create(context_, "loop.end", f);
    if (mayBeEmpty) b_.CreateCondBr(b_.CreateICmpSLT(begin, end), header, after);
    else b_.CreateBr(header);
    b_.SetInsertPoint(header);
    llvm::PHINode* i = b_.CreatePHI(i64_, 2);
    i->addIncoming(begin, before);
    body(i);
    Value* next = b_.CreateNSWAdd(i, b_.getInt64(1));
    llvm::BranchInst* back = b_.CreateCondBr(b_.CreateICmpSLT(next, end), header, after);
    i->addIncoming(next, b_.GetInsertBlock());
    if (vectorize) back->setMetadata(llvm::LLVMContext::MD_loop, vectorizeHint());
    b_.SetInsertPoint(after);
  }

  llvm::MDNode* vectorizeHint() {
    llvm::Metadata* enable[] = {llvm::MDString::get(context_, "llvm.loop.vectorize.enable"),
                                llvm::ConstantAsMetadata::get(b_.getTrue())};
    auto placeholder = llvm::MDNode::getTemporary(context_, {});
    llvm::Metadata* operands[] = {placeholder.get(), llvm::MDNode::get(context_, enable)};
    llvm::MDNode* id = llvm::MDNode::getDistinct(context_, operands);
    id->replaceOperandWith(0, id);
    return id;
  }

  const LoopNest& nest_;
  const Compute& c_;
  std::vector<int64_t> tile_, accCoeff_, regTile_, regCoeff_;
  int vectorLoop_ = -1;
  llvm::LLVMContext context_;
  llvm::Module module_;
  llvm::IRBuilder<> b_;
  llvm::Type* f32_ = nullptr;
  llvm::IntegerType* i64_ = nullptr;
  llvm::PointerType* floatPtr_ = nullptr;
  llvm::PointerType* bytePtr_ = nullptr;
  Value* lhs_ = nullptr;
  Value* rhs_ = nullptr;
  Value* bias_ = nullptr;
  Value* out_ = nullptr;
  Value* acc_ = nullptr;
  Value* reg_ = nullptr;
  std::vector<Value*> vars_;
};

} // namespace

std::string emitLlvmIr(const LoopNest& nest) { return IrEmitter(nest).run(); }

} // namespace tessera::tune
