// Goto/BLIS-style float GEMM: C is cut into blocks, one task each; a task packs, per K block, its
// rows of A into MR-row panels (scaled by alpha) and its columns of B into NR-column panels, and a
// micro-kernel keeps an MR x NR tile of C in registers. The SIMD kernels are compiled with
// per-function target attributes and picked at run time, so the library still runs without AVX.
#include "interp/FloatGemm.h"

#include "interp/KernelSupport.h"

#include <algorithm>
#include <cassert>
#include <cstring>


#if defined(__x86_64__) || defined(__i386__)
#define TESSERA_GEMM_X86 1
#include <immintrin.h>
#else
#define TESSERA_GEMM_X86 0
#endif

namespace tessera::interp {

namespace {

// kBlockK * NR floats of B stay in L1/L2 while a thread sweeps the A panels.
constexpr int64_t kBlockK = 256;
constexpr int kMaxTile = 8 * 32;  // the largest MR * NR

// acc = A panel [kc][MR] times B panel [kc][NR]; then c = acc + beta * c, where beta == 0 never
// reads c.
using TileFunction = void (*)(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, float beta);

struct KernelSpec {
  int mr;
  int nr;
  TileFunction tile;
};

template <int MR, int NR>
void portableTile(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, float beta) {
  float acc[MR][NR] = {};
  for (int64_t p = 0; p < kc; ++p) {
    const float* ap = a + p * MR;
    const float* bp = b + p * NR;
    for (int i = 0; i < MR; ++i)
      for (int j = 0; j < NR; ++j) acc[i][j] += ap[i] * bp[j];
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) c[i * ldc + j] = beta == 0.0f ? acc[i][j] : acc[i][j] + beta * c[i * ldc + j];
}

#if TESSERA_GEMM_X86
// 6 rows x 2 ymm: 12 accumulators + 2 B vectors + 1 broadcast fit the 16 ymm registers.
[[gnu::target("avx2,fma")]] void avx2Tile(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, float beta) {
  constexpr int MR = 6;
  __m256 acc[MR][2];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = _mm256_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m256 b0 = _mm256_loadu_ps(b + p * 16);
    const __m256 b1 = _mm256_loadu_ps(b + p * 16 + 8);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const __m256 s = _mm256_broadcast_ss(a + p * MR + i);
      acc[i][0] = _mm256_fmadd_ps(s, b0, acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(s, b1, acc[i][1]);
    }
  }
  const __m256 betaV = _mm256_set1_ps(beta);
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    float* row = c + i * ldc;
    if (beta != 0.0f) {
      acc[i][0] = _mm256_fmadd_ps(betaV, _mm256_loadu_ps(row), acc[i][0]);
      acc[i][1] = _mm256_fmadd_ps(betaV, _mm256_loadu_ps(row + 8), acc[i][1]);
    }
    _mm256_storeu_ps(row, acc[i][0]);
    _mm256_storeu_ps(row + 8, acc[i][1]);
  }
}

// 8 rows x 2 zmm: 16 accumulators, half of the 32 zmm registers, enough to hide FMA latency.
[[gnu::target("avx512f")]] void avx512Tile(int64_t kc, const float* a, const float* b, float* c, int64_t ldc, float beta) {
  constexpr int MR = 8;
  __m512 acc[MR][2];
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (int64_t p = 0; p < kc; ++p) {
    const __m512 b0 = _mm512_loadu_ps(b + p * 32);
    const __m512 b1 = _mm512_loadu_ps(b + p * 32 + 16);
#pragma GCC unroll 8
    for (int i = 0; i < MR; ++i) {
      const __m512 s = _mm512_set1_ps(a[p * MR + i]);
      acc[i][0] = _mm512_fmadd_ps(s, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(s, b1, acc[i][1]);
    }
  }
  const __m512 betaV = _mm512_set1_ps(beta);
#pragma GCC unroll 8
  for (int i = 0; i < MR; ++i) {
    float* row = c + i * ldc;
    if (beta != 0.0f) {
      acc[i][0] = _mm512_fmadd_ps(betaV, _mm512_loadu_ps(row), acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(betaV, _mm512_loadu_ps(row + 16), acc[i][1]);
    }
    _mm512_storeu_ps(row, acc[i][0]);
    _mm512_storeu_ps(row + 16, acc[i][1]);
  }
}
#endif

KernelSpec specOf(GemmKernel kernel) {
  switch (kernel) {
#if TESSERA_GEMM_X86
  case GemmKernel::Avx2: return {6, 16, avx2Tile};
  case GemmKernel::Avx512: return {8, 32, avx512Tile};
#endif
  default: return {4, 8, portableTile<4, 8>};
  }
}

// Rows [i0, i0+rows) and columns [p0, p0+kc) of A times alpha, as [kc][mr], zero rows below m.
void packA(MatrixView a, int64_t i0, int64_t rows, int64_t p0, int64_t kc, int mr, float alpha, float* dst) {
  if (rows < mr) std::fill(dst, dst + kc * mr, 0.0f);
  if (a.rowStride == 1 && a.colStride != 1) { // a transposed operand: walk down its contiguous columns
    for (int64_t p = 0; p < kc; ++p) {
      const float* src = a.data + i0 + (p0 + p) * a.colStride;
      for (int64_t i = 0; i < rows; ++i) dst[p * mr + i] = alpha * src[i];
    }
    return;
  }
  for (int64_t i = 0; i < rows; ++i) {
    const float* src = a.data + (i0 + i) * a.rowStride + p0 * a.colStride;
    for (int64_t p = 0; p < kc; ++p) dst[p * mr + i] = alpha * src[p * a.colStride];
  }
}

// Columns [j0, j0+cols) and rows [p0, p0+kc) of B as [kc][nr], zero columns beyond n.
void packB(MatrixView b, int64_t j0, int64_t cols, int64_t p0, int64_t kc, int nr, float* dst) {
  if (cols < nr) std::fill(dst, dst + kc * nr, 0.0f);
  if (b.colStride == 1) {
    for (int64_t p = 0; p < kc; ++p)
      std::memcpy(dst + p * nr, b.data + (p0 + p) * b.rowStride + j0, static_cast<size_t>(cols) * sizeof(float));
    return;
  }
  for (int64_t j = 0; j < cols; ++j) {
    const float* src = b.data + p0 * b.rowStride + (j0 + j) * b.colStride;
    for (int64_t p = 0; p < kc; ++p) dst[p * nr + j] = src[p * b.rowStride];
  }
}

void scaleMatrix(int64_t m, int64_t n, float beta, float* c, int64_t ldc) {
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t roundUp(int64_t a, int64_t b) { return ceilDiv(a, b) * b; }

// sum_p x[p * xStride] * y[p * yStride], eight independent partial sums so that the compiler
// can keep them in one vector register without reassociating a single running sum.
float dot(int64_t k, const float* x, int64_t xStride, const float* y, int64_t yStride) {
  float partial[8] = {};
  int64_t p = 0;
  if (xStride == 1 && yStride == 1)
    for (; p + 8 <= k; p += 8)
      for (int l = 0; l < 8; ++l) partial[l] += x[p + l] * y[p + l];
  for (; p < k; ++p) partial[p % 8] += x[p * xStride] * y[p * yStride];
  return ((partial[0] + partial[1]) + (partial[2] + partial[3])) + ((partial[4] + partial[5]) + (partial[6] + partial[7]));
}

// A matrix-vector product (m == 1 or n == 1): memory-bound, so no packing, and no MR x NR tile
// that would be mostly padding. Seen as y[o] = sum_p M(o, p) v[p] over the long dimension.
void matrixVector(int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b, float beta, float* c, int64_t ldc) {
  const bool rowVector = m == 1;
  const int64_t outputs = rowVector ? n : m;
  const MatrixView matrix = rowVector ? b.transposed() : a;
  const float* v = rowVector ? a.data : b.data;
  const int64_t vStride = rowVector ? a.colStride : b.rowStride;
  const int64_t yStride = rowVector ? 1 : ldc;
  auto store = [&](int64_t o, float sum) {
    float& out = c[o * yStride];
    out = beta == 0.0f ? alpha * sum : alpha * sum + beta * out;
  };
  const bool parallel = static_cast<double>(outputs) * static_cast<double>(k) > 1e5;
  if (matrix.rowStride != 1 || matrix.colStride == 1) {
    // Rows of M are contiguous (or nothing is): one dot product per output.
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (parallel)
    for (int64_t o = 0; o < outputs; ++o) store(o, dot(k, matrix.data + o * matrix.rowStride, matrix.colStride, v, vStride));
    return;
  }
  // Columns of M are contiguous: accumulate v[p] times column p into a chunk of outputs.
  constexpr int64_t kChunk = 256;
#pragma omp parallel for schedule(static) num_threads(parallelThreads()) if (parallel)
  for (int64_t o0 = 0; o0 < outputs; o0 += kChunk) {
    const int64_t count = std::min(kChunk, outputs - o0);
    float sums[kChunk] = {};
    for (int64_t p = 0; p < k; ++p) {
      const float vp = v[p * vStride];
      const float* column = matrix.data + p * matrix.colStride + o0;
      for (int64_t o = 0; o < count; ++o) sums[o] += column[o] * vp;
    }
    for (int64_t o = 0; o < count; ++o) store(o0 + o, sums[o]);
  }
}

// Rows and columns of C per task, multiples of MR and NR. A task packs its B columns once per K
// block and reuses them for all its rows, so tasks span up to 512 rows (a 512 x 256 A block is
// 512 KiB, in L2); with several threads, columns are split first, down to 4 panels, so that
// there are a few tasks per thread to balance.
struct Blocking {
  int64_t rows;
  int64_t cols;
};

Blocking chooseBlocking(int64_t m, int64_t n, int mr, int nr, int threads) {
  Blocking b{roundUp(std::min<int64_t>(m, 512), mr), roundUp(std::min<int64_t>(n, 512), nr)};
  const int64_t wanted = threads > 1 ? 4 * threads : 1;
  while (ceilDiv(m, b.rows) * ceilDiv(n, b.cols) < wanted) {
    if (b.cols > 4 * nr)
      b.cols = roundUp(b.cols / 2, nr);
    else if (b.rows > mr)
      b.rows = roundUp(b.rows / 2, mr);
    else if (b.cols > nr)
      b.cols = roundUp(b.cols / 2, nr);
    else
      break;
  }
  return b;
}

// C[i0 : i0+rows, j0 : j0+cols] for the whole K: pack a K block of this task's A rows and B
// columns into thread-private panels, then sweep the micro-tiles.
void gemmTask(const KernelSpec& spec, int64_t i0, int64_t rows, int64_t j0, int64_t cols, int64_t k, float alpha, MatrixView a,
              MatrixView b, float beta, float* c, int64_t ldc) {
  const int mr = spec.mr, nr = spec.nr;
  const int64_t mPanels = ceilDiv(rows, mr), nPanels = ceilDiv(cols, nr);
  const int64_t kcMax = std::min(k, kBlockK);
  thread_local std::vector<float> packedA, packedB;
  if (packedA.size() < static_cast<size_t>(mPanels * mr * kcMax)) packedA.resize(static_cast<size_t>(mPanels * mr * kcMax));
  if (packedB.size() < static_cast<size_t>(nPanels * nr * kcMax)) packedB.resize(static_cast<size_t>(nPanels * nr * kcMax));
  for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
    const int64_t kc = std::min(kBlockK, k - p0);
    const float betaNow = p0 == 0 ? beta : 1.0f;
    for (int64_t ip = 0; ip < mPanels; ++ip)
      packA(a, i0 + ip * mr, std::min<int64_t>(mr, rows - ip * mr), p0, kc, mr, alpha, packedA.data() + ip * mr * kc);
    for (int64_t jp = 0; jp < nPanels; ++jp)
      packB(b, j0 + jp * nr, std::min<int64_t>(nr, cols - jp * nr), p0, kc, nr, packedB.data() + jp * nr * kc);
    for (int64_t jp = 0; jp < nPanels; ++jp) {
      const float* bPanel = packedB.data() + jp * nr * kc;
      const int64_t jStart = j0 + jp * nr, tileCols = std::min<int64_t>(nr, cols - jp * nr);
      for (int64_t ip = 0; ip < mPanels; ++ip) {
        const float* aPanel = packedA.data() + ip * mr * kc;
        const int64_t iStart = i0 + ip * mr, tileRows = std::min<int64_t>(mr, rows - ip * mr);
        float* cTile = c + iStart * ldc + jStart;
        if (tileRows == mr && tileCols == nr) {
          spec.tile(kc, aPanel, bPanel, cTile, ldc, betaNow);
          continue;
        }
        // An edge tile: compute the full tile aside, keep its valid part.
        alignas(64) float edge[kMaxTile];
        spec.tile(kc, aPanel, bPanel, edge, nr, 0.0f);
        for (int64_t i = 0; i < tileRows; ++i)
          for (int64_t j = 0; j < tileCols; ++j) {
            float& out = cTile[i * ldc + j];
            out = betaNow == 0.0f ? edge[i * nr + j] : edge[i * nr + j] + betaNow * out;
          }
      }
    }
  }
}

void blockedGemm(const KernelSpec& spec, int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b,
                 float beta, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == 0.0f) {
    scaleMatrix(m, n, beta, c, ldc);
    return;
  }
  if (m == 1 || n == 1) {
    matrixVector(m, n, k, alpha, a, b, beta, c, ldc);
    return;
  }
  assert(spec.mr * spec.nr <= kMaxTile && "tile sizes must fit the edge buffer");
  // Below about a megaflop a thread team costs more than it saves.
  const bool parallel = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) > 1e6;
  const int threads = parallel ? parallelThreads() : 1;
  const Blocking blocking = chooseBlocking(m, n, spec.mr, spec.nr, threads);
  const int64_t tilesM = ceilDiv(m, blocking.rows), tilesN = ceilDiv(n, blocking.cols);
  // Tasks are independent (each owns a block of C and packs its own panels): no barrier but the
  // last, and a thread that the OS pauses delays only the task it holds.
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) if (threads > 1)
  for (int64_t task = 0; task < tilesM * tilesN; ++task) {
    const int64_t i0 = task % tilesM * blocking.rows, j0 = task / tilesM * blocking.cols;
    gemmTask(spec, i0, std::min(blocking.rows, m - i0), j0, std::min(blocking.cols, n - j0), k, alpha, a, b, beta, c, ldc);
  }
}

} // namespace

bool gemmKernelAvailable(GemmKernel kernel) {
  switch (kernel) {
  case GemmKernel::Portable: return true;
#if TESSERA_GEMM_X86
  case GemmKernel::Avx2: __builtin_cpu_init(); return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  case GemmKernel::Avx512: __builtin_cpu_init(); return __builtin_cpu_supports("avx512f");
#else
  default: return false;
#endif
  }
  return false;
}

GemmKernel bestGemmKernel() {
  static const GemmKernel best = [] {
    if (gemmKernelAvailable(GemmKernel::Avx512)) return GemmKernel::Avx512;
    if (gemmKernelAvailable(GemmKernel::Avx2)) return GemmKernel::Avx2;
    return GemmKernel::Portable;
  }();
  return best;
}

const char* gemmKernelName(GemmKernel kernel) {
  switch (kernel) {
  case GemmKernel::Portable: return "portable";
  case GemmKernel::Avx2: return "avx2";
  case GemmKernel::Avx512: return "avx512";
  }
  return "?";
}

void floatGemmWith(GemmKernel kernel, int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b, float beta,
                   float* c, int64_t ldc) {
  assert(gemmKernelAvailable(kernel) && "the CPU must support the requested kernel");
  blockedGemm(specOf(kernel), m, n, k, alpha, a, b, beta, c, ldc);
}

void floatGemm(int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b, float beta, float* c, int64_t ldc) {
  blockedGemm(specOf(bestGemmKernel()), m, n, k, alpha, a, b, beta, c, ldc);
}

} // namespace tessera::interp
