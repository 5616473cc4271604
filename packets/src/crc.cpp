#include "rdmascope/packets/crc.h"

#include <isa-l/crc.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define RDMASCOPE_CRC_FOLD 1
#endif

namespace rdmascope::packets {
namespace {

#if defined(RDMASCOPE_CRC_FOLD)
// CRC-32 by carry-less multiplication (Intel, "Fast CRC Computation for Generic Polynomials
// Using PCLMULQDQ"), 256 bits wide: four accumulators of 32 bytes fold 128 bytes a round. ISA-L
// folds 128 bits at a time unless the CPU has AVX-512; with VPCLMULQDQ and AVX2 (AMD Zen 3,
// Intel Ice Lake) this is about twice as fast. Each constant is (x^n mod P)' << 1, bit-reflected
// as the CRC is: n = 1024 +/- 32 folds across a round, n = 128 +/- 32 across one 16-byte lane.
#define RDMASCOPE_FOLD_TARGET __attribute__((target("avx2,vpclmulqdq,pclmul")))

RDMASCOPE_FOLD_TARGET inline __m256i load(const std::uint8_t* at) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at));
}

RDMASCOPE_FOLD_TARGET inline __m256i fold256(__m256i x, __m256i k, const std::uint8_t* next) {
  return _mm256_xor_si256(
      _mm256_xor_si256(_mm256_clmulepi64_epi128(x, k, 0x00), _mm256_clmulepi64_epi128(x, k, 0x11)),
      load(next));
}

RDMASCOPE_FOLD_TARGET inline __m128i fold128(__m128i x, __m128i k, __m128i next) {
  return _mm_xor_si128(
      _mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), _mm_clmulepi64_si128(x, k, 0x11)), next);
}

// Needs n >= 128.
RDMASCOPE_FOLD_TARGET std::uint32_t crc32Fold(std::uint32_t previous, const std::uint8_t* p,
                                              std::size_t n) {
  const __m256i kRound = _mm256_set_epi64x(0x14a7fe880, 0x1e88ef372, 0x14a7fe880, 0x1e88ef372);
  const __m128i kLane = _mm_set_epi64x(0xccaa009e, 0x1751997d0);
  // the register starts as ~previous: XORed into the first four bytes, it folds in with them
  __m256i x0 =
      _mm256_xor_si256(load(p), _mm256_set_epi32(0, 0, 0, 0, 0, 0, 0, static_cast<int>(~previous)));
  __m256i x1 = load(p + 32), x2 = load(p + 64), x3 = load(p + 96);
  p += 128;
  n -= 128;
  for (; n >= 128; p += 128, n -= 128) {
    _mm_prefetch(reinterpret_cast<const char*>(p) + 512, _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(p) + 576, _MM_HINT_T0);
    x0 = fold256(x0, kRound, p);
    x1 = fold256(x1, kRound, p + 32);
    x2 = fold256(x2, kRound, p + 64);
    x3 = fold256(x3, kRound, p + 96);
  }
  __m128i a = _mm256_castsi256_si128(x0);
  a = fold128(a, kLane, _mm256_extracti128_si256(x0, 1));
  a = fold128(a, kLane, _mm256_castsi256_si128(x1));
  a = fold128(a, kLane, _mm256_extracti128_si256(x1, 1));
  a = fold128(a, kLane, _mm256_castsi256_si128(x2));
  a = fold128(a, kLane, _mm256_extracti128_si256(x2, 1));
  a = fold128(a, kLane, _mm256_castsi256_si128(x3));
  a = fold128(a, kLane, _mm256_extracti128_si256(x3, 1));
  for (; n >= 16; p += 16, n -= 16)
    a = fold128(a, kLane, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  // The 16 folded bytes stand for everything so far, with a register of zero (ISA-L's initial
  // value ~0): ISA-L reduces them to 32 bits and goes on over the last bytes.
  alignas(16) std::uint8_t rest[16];
  _mm_store_si128(reinterpret_cast<__m128i*>(rest), a);
  const std::uint32_t crc = crc32_gzip_refl(0xffffffffu, rest, sizeof rest);
  return n ? crc32_gzip_refl(crc, p, n) : crc;
}

bool canFold() {
  static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul") &&
                          __builtin_cpu_supports("vpclmulqdq");
  return yes;
}
#endif

}  // namespace

std::uint32_t crc32(std::span<const std::uint8_t> bytes, std::uint32_t previous) {
#if defined(RDMASCOPE_CRC_FOLD)
  if (bytes.size() >= 256 && canFold()) return crc32Fold(previous, bytes.data(), bytes.size());
#endif
  return crc32_gzip_refl(previous, bytes.data(), bytes.size());
}

std::uint32_t crc32c(std::span<const std::uint8_t> bytes, std::uint32_t previous) {
  // ISA-L's crc32_iscsi takes and returns the raw register (no final inversion).
  const auto reg = crc32_iscsi(const_cast<std::uint8_t*>(bytes.data()),
                               static_cast<int>(bytes.size()), ~previous);
  return ~reg;
}

}  // namespace rdmascope::packets
