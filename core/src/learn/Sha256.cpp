#include "Sha256.hpp"

#include "kfield/impl/Bits.hpp"
#include "kfield/impl/Errors.hpp"

#include <cstring>

namespace kfield::impl {

namespace {

constexpr std::uint32_t kRound[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

constexpr std::uint32_t kInitial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

std::uint32_t rotr(std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

std::uint32_t loadBig(const unsigned char* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 |
         std::uint32_t(p[3]);
}
void storeBig(std::uint32_t v, unsigned char* p) {
  for (int j = 0; j < 4; ++j) p[j] = static_cast<unsigned char>(v >> (24 - 8 * j));
}

}  // namespace

Sha256::Sha256() { std::memcpy(h_, kInitial, sizeof h_); }

void Sha256::block(const unsigned char* p) {
  std::uint32_t w[64];
  for (int t = 0; t < 16; ++t) w[t] = loadBig(p + 4 * t);
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  std::uint32_t a = h_[0], b = h_[1], c = h_[2], d = h_[3], e = h_[4], f = h_[5], g = h_[6],
                h = h_[7];
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t t1 =
        h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + kRound[t] + w[t];
    const std::uint32_t t2 =
        (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
  }
  h_[0] += a, h_[1] += b, h_[2] += c, h_[3] += d, h_[4] += e, h_[5] += f, h_[6] += g, h_[7] += h;
}

void Sha256::update(const unsigned char* data, std::size_t size) {
  std::size_t used = static_cast<std::size_t>(length_ % 64);
  length_ += size;
  if (used > 0) {
    const std::size_t take = size < 64 - used ? size : 64 - used;
    std::memcpy(buffer_ + used, data, take);
    data += take, size -= take, used += take;
    if (used < 64) return;
    block(buffer_);
  }
  for (; size >= 64; data += 64, size -= 64) block(data);
  if (size > 0) std::memcpy(buffer_, data, size);
}

Digest Sha256::finish() const {
  Sha256 last = *this;
  const std::uint64_t bits = length_ * 8;
  const unsigned char one = 0x80, zero = 0;
  last.update(&one, 1);
  while (last.length_ % 64 != 56) last.update(&zero, 1);
  unsigned char size[8];
  for (int j = 0; j < 8; ++j) size[j] = static_cast<unsigned char>(bits >> (56 - 8 * j));
  last.update(size, 8);
  Digest digest{};
  for (int j = 0; j < 8; ++j) storeBig(last.h_[j], digest.data() + 4 * j);
  return digest;
}

std::vector<unsigned char> Sha256::save() const {
  ByteWriter out;
  for (std::uint32_t h : h_) out.word(h);
  out.word(length_);
  for (int j = 0; j < 8; ++j) out.word(loadWord(buffer_ + 8 * j));
  return out.bytes;
}

Sha256 Sha256::restore(const std::vector<unsigned char>& bytes) {
  ByteReader in(bytes, "kfield::impl::Sha256: a saved state");
  Sha256 s;
  for (std::uint32_t& h : s.h_) h = static_cast<std::uint32_t>(in.word());
  s.length_ = in.word();
  for (int j = 0; j < 8; ++j) storeWord(in.word(), s.buffer_ + 8 * j);
  in.requireEnd();
  return s;
}

}  // namespace kfield::impl
