// The SHA-256 of a result's bits, so that runs on two spaces, thread counts or machines can be
// compared by one line of output: equal digests, equal bits.
#ifndef KFIELD_APPS_DIGEST_HPP
#define KFIELD_APPS_DIGEST_HPP

#include <kfield/Plane.hpp>
#include <kfield/impl/Bits.hpp>
#include <kfield/learn/Identity.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::cli {

// Doubles are hashed as their IEEE words, 8 bytes each, least significant byte first.
class BitsDigest {
 public:
  void add(double value) {
    const std::uint64_t word = impl::bitsOf(value);
    for (int b = 0; b < 8; ++b) bytes_.push_back(static_cast<unsigned char>(word >> (8 * b)));
  }
  void add(const std::vector<double>& values) {
    for (double v : values) add(v);
  }
  // Devices x samples, device-major.
  void add(const HostPlane& plane) {
    bytes_.reserve(bytes_.size() + plane.extent(0) * plane.extent(1) * 8);
    for (std::size_t d = 0; d < plane.extent(0); ++d) {
      for (std::size_t s = 0; s < plane.extent(1); ++s) add(plane(d, s));
    }
  }
  std::string hex() const { return describe(sha256(bytes_)); }

 private:
  std::vector<unsigned char> bytes_;
};

}  // namespace kfield::cli

#endif
