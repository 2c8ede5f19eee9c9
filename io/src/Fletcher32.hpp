// HDF5's Fletcher32 checksum, bit for bit as its filter computes it (16-bit big-endian words,
// sums folded every 360 words), several times faster: each block's two sums come from one
// pass that the compiler vectorises (sum of w_i and sum of (n - i) w_i) instead of a chain of
// dependent additions. Checkpoints write and check their chunks with it directly
// (H5Dwrite_chunk / H5Dread_chunk), and HDF5's own filter reads what it writes.
#ifndef KFIELD_IO_SRC_FLETCHER32_HPP
#define KFIELD_IO_SRC_FLETCHER32_HPP

#include <cstddef>
#include <cstdint>

namespace kfield::io::impl {

std::uint32_t fletcher32(const unsigned char* data, std::size_t bytes);

}  // namespace kfield::io::impl

#endif
