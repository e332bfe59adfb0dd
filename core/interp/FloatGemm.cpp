// Goto/BLIS-style float GEMM: for each K block, A is packed into MR-row panels (scaled by alpha)
// and B, per N block, into NR-column panels; a micro-kernel keeps an MR x NR tile of C in
// registers. The SIMD kernels are compiled with per-function target attributes and picked at run
// time, so the library still runs on a CPU without AVX.
#include "interp/FloatGemm.h"

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
constexpr int64_t kBlockN = 2048; // a multiple of every NR
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

void blockedGemm(const KernelSpec& spec, int64_t m, int64_t n, int64_t k, float alpha, MatrixView a, MatrixView b,
                 float beta, float* c, int64_t ldc) {
  if (m <= 0 || n <= 0) return;
  if (k <= 0 || alpha == 0.0f) {
    scaleMatrix(m, n, beta, c, ldc);
    return;
  }
  const int mr = spec.mr, nr = spec.nr;
  assert(mr * nr <= kMaxTile && kBlockN % nr == 0 && "tile sizes must fit the edge buffer and the N block");
  const int64_t kcMax = std::min(k, kBlockK);
  const int64_t mPanels = (m + mr - 1) / mr;
  const int64_t ncMax = std::min((n + nr - 1) / nr * nr, kBlockN);
  std::vector<float> packedA(static_cast<size_t>(mPanels * mr * kcMax));
  std::vector<float> packedB(static_cast<size_t>(ncMax * kcMax));
  // Below about a megaflop the thread team costs more than it saves.
  const bool parallel = 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) > 1e6;

#pragma omp parallel if (parallel)
  {
    // Every thread walks the same K and N blocks; the work-sharing loops and their barriers keep
    // the shared packed buffers consistent.
    for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
      const int64_t kc = std::min(kBlockK, k - p0);
      const float betaNow = p0 == 0 ? beta : 1.0f;
#pragma omp for schedule(static)
      for (int64_t ip = 0; ip < mPanels; ++ip)
        packA(a, ip * mr, std::min<int64_t>(mr, m - ip * mr), p0, kc, mr, alpha, packedA.data() + ip * mr * kc);
      for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
        const int64_t nc = std::min(kBlockN, n - j0);
        const int64_t nPanels = (nc + nr - 1) / nr;
#pragma omp for schedule(static)
        for (int64_t jp = 0; jp < nPanels; ++jp)
          packB(b, j0 + jp * nr, std::min<int64_t>(nr, nc - jp * nr), p0, kc, nr, packedB.data() + jp * nr * kc);
#pragma omp for schedule(static)
        for (int64_t t = 0; t < nPanels * mPanels; ++t) {
          const int64_t jp = t / mPanels, ip = t % mPanels;
          const int64_t i0 = ip * mr, jStart = j0 + jp * nr;
          const int64_t rows = std::min<int64_t>(mr, m - i0), cols = std::min<int64_t>(nr, n - jStart);
          const float* aPanel = packedA.data() + ip * mr * kc;
          const float* bPanel = packedB.data() + jp * nr * kc;
          float* cTile = c + i0 * ldc + jStart;
          if (rows == mr && cols == nr) {
            spec.tile(kc, aPanel, bPanel, cTile, ldc, betaNow);
            continue;
          }
          // An edge tile: compute the full tile aside, keep its valid part.
          alignas(64) float edge[kMaxTile];
          spec.tile(kc, aPanel, bPanel, edge, nr, 0.0f);
          for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) {
              float& out = cTile[i * ldc + j];
              out = betaNow == 0.0f ? edge[i * nr + j] : edge[i * nr + j] + betaNow * out;
            }
        }
      }
    }
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
