#include "Checksums.hpp"

namespace kfield::io::impl {

namespace {
// x86-64's baseline has 128-bit vectors only: with AVX2 or AVX-512 present the loop below runs
// two to four times as fast, so it is compiled for each and chosen at load time.
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__INTEL_COMPILER)
#define KFIELD_CHECKSUM_CLONES \
  __attribute__((target_clones("arch=skylake-avx512", "avx2", "default")))
#else
#define KFIELD_CHECKSUM_CLONES
#endif

// The sequential sums over a block of n words, in closed form (exact in uint32 arithmetic,
// wrapping as the sequential sums would): sum1 += S, sum2 += n sum1_before + T.
inline void block(const unsigned char* data, std::uint32_t n, std::uint32_t& sum1,
                  std::uint32_t& sum2) {
  std::uint32_t s = 0, t = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t w = (std::uint32_t(data[2 * i]) << 8) | data[2 * i + 1];
    s += w;
    t += (n - i) * w;
  }
  sum2 += n * sum1 + t;
  sum1 += s;
}
}  // namespace

KFIELD_CHECKSUM_CLONES std::uint32_t fletcher32(const unsigned char* data, std::size_t bytes) {
  std::size_t words = bytes / 2;
  std::uint32_t sum1 = 0, sum2 = 0;
  while (words > 0) {
    const auto n = static_cast<std::uint32_t>(words > 360 ? 360 : words);
    block(data, n, sum1, sum2);
    data += 2 * n;
    words -= n;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  if (bytes % 2) {  // an odd last byte is the high half of a word
    sum1 += std::uint32_t(*data) << 8;
    sum2 += sum1;
    sum1 = (sum1 & 0xffff) + (sum1 >> 16);
    sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  }
  sum1 = (sum1 & 0xffff) + (sum1 >> 16);
  sum2 = (sum2 & 0xffff) + (sum2 >> 16);
  return (sum2 << 16) | sum1;
}

KFIELD_CHECKSUM_CLONES std::uint32_t adler32(const unsigned char* data, std::size_t bytes) {
  constexpr std::uint32_t kBase = 65521;
  std::uint32_t a = 1, b = 0;
  while (bytes > 0) {
    // zlib's NMAX: b + n a + 255 n (n + 1) / 2 stays below 2^32 for a, b < kBase.
    const auto n = static_cast<std::uint32_t>(bytes > 5552 ? 5552 : bytes);
    std::uint32_t s = 0, t = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      s += data[i];
      t += (n - i) * data[i];
    }
    b = (b + n * a + t) % kBase;
    a = (a + s) % kBase;
    data += n;
    bytes -= n;
  }
  return (b << 16) | a;
}

}  // namespace kfield::io::impl
