// The checksums of HDF5's filters, bit for bit, several times faster than HDF5's and zlib's:
// each block's two running sums come from one pass that the compiler vectorises (sum of w_i and
// sum of (n - i) w_i) instead of a chain of dependent additions. kfield writes and checks
// chunks with them directly (H5Dwrite_chunk / H5Dread_chunk), and HDF5's own filters read what
// it writes.
#ifndef KFIELD_IO_SRC_CHECKSUMS_HPP
#define KFIELD_IO_SRC_CHECKSUMS_HPP

#include <cstddef>
#include <cstdint>

namespace kfield::io::impl {

// Fletcher32 as HDF5's filter computes it: 16-bit big-endian words, sums folded every 360.
std::uint32_t fletcher32(const unsigned char* data, std::size_t bytes);
// Adler-32 (RFC 1950), the trailer of a zlib stream: what zlib's adler32(1, data, bytes) gives.
std::uint32_t adler32(const unsigned char* data, std::size_t bytes);

}  // namespace kfield::io::impl

#endif
