// SHA-256 (FIPS 180-4) whose running state is plain words, so one digest can be carried from
// rank to rank: each hashes its own bytes and hands the state on (Identity.cpp's identities of
// a system held in part). OpenSSL's contexts are opaque and stay in one process; whole systems
// are still hashed by OpenSSL, which is faster where the CPU has SHA instructions.
#ifndef KFIELD_CORE_SRC_LEARN_SHA256_HPP
#define KFIELD_CORE_SRC_LEARN_SHA256_HPP

#include "kfield/learn/Identity.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kfield::impl {

class Sha256 {
 public:
  Sha256();
  void update(const unsigned char* data, std::size_t size);
  Digest finish() const;
  // The running state as 136 bytes, and back (refusing bytes that are not one).
  std::vector<unsigned char> save() const;
  static Sha256 restore(const std::vector<unsigned char>& bytes);

 private:
  void block(const unsigned char* p);
  std::uint32_t h_[8];
  std::uint64_t length_ = 0;  // bytes hashed
  unsigned char buffer_[64] = {};
};

}  // namespace kfield::impl

#endif
