// A binary64 value and its 64 bits, and the one byte format kfield writes: 64-bit words,
// little-endian, whatever the machine's own order.
#ifndef KFIELD_IMPL_BITS_HPP
#define KFIELD_IMPL_BITS_HPP

#include "kfield/Bits.hpp"
#include "kfield/impl/Errors.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace kfield::impl {

using kfield::bitsOf;
using kfield::doubleOf;

inline void storeWord(std::uint64_t word, unsigned char* bytes) {
  for (int j = 0; j < 8; ++j) bytes[j] = static_cast<unsigned char>(word >> (8 * j));
}

inline std::uint64_t loadWord(const unsigned char* bytes) {
  std::uint64_t word = 0;
  for (int j = 0; j < 8; ++j) word |= std::uint64_t(bytes[j]) << (8 * j);
  return word;
}

// Appends words to a byte vector.
struct ByteWriter {
  std::vector<unsigned char> bytes;

  void word(std::uint64_t w) {
    const std::size_t used = bytes.size();
    bytes.resize(used + 8);
    storeWord(w, bytes.data() + used);
  }
  void value(double v) { word(bitsOf(v)); }
};

// Reads words back; `who` names the reader in the error a short or long input gives.
class ByteReader {
 public:
  ByteReader(const std::vector<unsigned char>& bytes, std::string who)
      : bytes_(bytes), who_(std::move(who)) {}

  std::uint64_t word() {
    if (bytes_.size() - at_ < 8) runtimeError(who_, "the bytes end before a word (truncated)");
    const std::uint64_t w = loadWord(bytes_.data() + at_);
    at_ += 8;
    return w;
  }
  double value() { return doubleOf(word()); }
  std::size_t wordsLeft() const { return (bytes_.size() - at_) / 8; }
  void requireEnd() const {
    if (at_ != bytes_.size()) {
      runtimeError(who_, std::to_string(bytes_.size() - at_) + " bytes after the last word");
    }
  }

 private:
  const std::vector<unsigned char>& bytes_;
  std::string who_;
  std::size_t at_ = 0;
};

}  // namespace kfield::impl

#endif
