// Chunks kfield reads and writes whole, past HDF5's filter pipeline (Hdf5.hpp: Dataset's
// direct paths): Fletcher32 computed by kfield, deflate by zlib on every host thread, reads with
// pread straight into place. The bytes are what HDF5's own filters store and check.
#include "Hdf5.hpp"

#include "Checksums.hpp"

#include <zlib.h>
#include <Kokkos_Core.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstring>

namespace kfield::io::impl {

std::uint64_t Dataset::directChunk(Type memory, std::uint64_t& rowBytes) const {
#ifdef H5_HAVE_PARALLEL
  (void)memory, (void)rowBytes;
  return 0;  // direct chunk I/O is not available with parallel HDF5
#else
  if (dims_.empty()) return 0;
  Id dcpl(H5Dget_create_plist(id_.get()), H5Pclose);
  if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED || H5Pget_nfilters(dcpl.get()) != 1) return 0;
  unsigned flags = 0;
  std::size_t n = 0;
  if (H5Pget_filter2(dcpl.get(), 0, &flags, &n, nullptr, 0, nullptr, nullptr) !=
      H5Z_FILTER_FLETCHER32) {
    return 0;
  }
  // The bytes in memory must be the bytes in the file (little-endian hosts).
  Id stored(H5Dget_type(id_.get()), H5Tclose);
  if (H5Tequal(stored.get(), memoryType(memory)) <= 0) return 0;
  // Chunks of whole rows: a chunk's values are contiguous in memory.
  std::vector<hsize_t> chunk(dims_.size());
  if (H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) !=
      static_cast<int>(chunk.size())) {
    return 0;
  }
  rowBytes = H5Tget_size(memoryType(memory));
  for (std::size_t j = 1; j < dims_.size(); ++j) {
    if (chunk[j] != dims_[j]) return 0;
    rowBytes *= dims_[j];
  }
  return chunk[0];
#endif
}

namespace {
void encodeLittle(std::uint32_t v, unsigned char* p) {
  for (int j = 0; j < 4; ++j) p[j] = static_cast<unsigned char>(v >> (8 * j));
}
std::uint32_t decodeLittle(const unsigned char* p) {
  return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
         std::uint32_t(p[3]) << 24;
}

// The descriptor of a dataset's file when HDF5 reads it with its default driver (sec2) and
// it has no user block, so chunk addresses are file offsets; -1 otherwise.
int plainDescriptor(hid_t dataset) {
  Id file(H5Iget_file_id(dataset), H5Fclose);
  Id fapl(H5Fget_access_plist(file.get()), H5Pclose);
  Id fcpl(H5Fget_create_plist(file.get()), H5Pclose);
  hsize_t userBlock = 1;
  if (H5Pget_driver(fapl.get()) != H5FD_SEC2 || H5Pget_userblock(fcpl.get(), &userBlock) < 0 ||
      userBlock != 0) {
    hdf5Message();
    return -1;
  }
  void* handle = nullptr;
  if (H5Fget_vfd_handle(file.get(), fapl.get(), &handle) < 0 || !handle) {
    hdf5Message();
    return -1;
  }
  return *static_cast<int*>(handle);
}

// What HDF5's shuffle filter stores: byte k of every value together (plane k), for values of
// `width` bytes. Values of 8 bytes go 8 at a time through an 8 x 8 byte transpose in registers.
void shuffleBytes(const unsigned char* in, unsigned char* out, std::uint64_t bytes,
                  std::uint64_t width) {
  const std::uint64_t values = bytes / width;
  std::uint64_t v = 0;
  if (width == 8) {
    for (; v + 8 <= values; v += 8) {
      std::uint64_t r[8];  // r[j]: value v + j; byte k of it is column k
      std::memcpy(r, in + v * 8, sizeof r);
      for (int i : {0, 1, 2, 3}) {  // swap 4-byte blocks, then 2-byte, then bytes
        const std::uint64_t t = ((r[i] >> 32) ^ r[i + 4]) & 0x00000000ffffffffull;
        r[i + 4] ^= t, r[i] ^= t << 32;
      }
      for (int i : {0, 1, 4, 5}) {
        const std::uint64_t t = ((r[i] >> 16) ^ r[i + 2]) & 0x0000ffff0000ffffull;
        r[i + 2] ^= t, r[i] ^= t << 16;
      }
      for (int i : {0, 2, 4, 6}) {
        const std::uint64_t t = ((r[i] >> 8) ^ r[i + 1]) & 0x00ff00ff00ff00ffull;
        r[i + 1] ^= t, r[i] ^= t << 8;
      }
      for (int k = 0; k < 8; ++k) std::memcpy(out + k * values + v, &r[k], 8);  // now plane k
    }
  }
  for (; v < values; ++v) {
    for (std::uint64_t k = 0; k < width; ++k) out[k * values + v] = in[v * width + k];
  }
  std::memcpy(out + values * width, in + values * width, bytes - values * width);  // leftover
}

// What zlib's compress2 at this level stores (RFC 1950: header, deflate data, Adler-32), with
// the Adler-32 computed by kfield (zlib's own is a scalar loop that costs about as much as
// deflate at level 1 on shuffled numbers). `out` has compressBound(bytes) + 4 bytes (room for
// the Fletcher32 after the stream); `size` becomes the stream's size. False when zlib fails.
bool zlibStream(const unsigned char* in, std::uint64_t bytes, int level,
                std::vector<unsigned char>& out, uLongf& size) {
  z_stream z{};
  if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  // The header zlib writes: 32 KiB window, its level class, a check making it a multiple of 31.
  const unsigned levelClass = level < 2 ? 0 : level < 6 ? 1 : level == 6 ? 2 : 3;
  unsigned header = (0x78u << 8) | (levelClass << 6);
  header += 31 - header % 31;
  out[0] = static_cast<unsigned char>(header >> 8);
  out[1] = static_cast<unsigned char>(header);
  z.next_in = const_cast<unsigned char*>(in);
  z.avail_in = static_cast<uInt>(bytes);
  z.next_out = out.data() + 2;
  z.avail_out = static_cast<uInt>(out.size() - 10);  // header, Adler-32, Fletcher32
  const bool done = deflate(&z, Z_FINISH) == Z_STREAM_END;
  const uLong deflated = z.total_out;
  deflateEnd(&z);
  if (!done) return false;
  const std::uint32_t check = adler32(in, bytes);
  for (int k = 0; k < 4; ++k) {
    out[2 + deflated + k] = static_cast<unsigned char>(check >> (24 - 8 * k));  // big-endian
  }
  size = deflated + 6;
  return true;
}

// Where a stored chunk of exactly `size` bytes lies in the file; HADDR_UNDEF when it is not.
haddr_t chunkAddress(hid_t dataset, const hsize_t* offset, std::size_t size) {
  unsigned mask = 0;
  haddr_t address = HADDR_UNDEF;
  hsize_t stored = 0;
  if (H5Dget_chunk_info_by_coord(dataset, offset, &mask, &address, &stored) < 0) {
    hdf5Message();
    return HADDR_UNDEF;
  }
  return mask == 0 && stored == size ? address : HADDR_UNDEF;
}
}  // namespace

bool Dataset::writeDirect(const void* data, Type memory, std::uint64_t first,
                          std::uint64_t rows) const {
  std::uint64_t size = 0;  // bytes a row
  const std::uint64_t c = directChunk(memory, size);
  if (c == 0 || first % c != 0 || (rows % c != 0 && first + rows != dims_[0])) return false;
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::uint64_t end = first + rows;
  const int fd = plainDescriptor(id_.get());
  std::vector<unsigned char> spare;
  for (std::uint64_t at = first; at < end; at += c) {
    const std::uint64_t n = std::min(c, end - at);
    const unsigned char* values = bytes + (at - first) * size;
    std::vector<hsize_t> offset(dims_.size(), 0);
    offset[0] = at;
    const std::uint32_t sum = n == c ? fletcher32(values, c * size) : 0;
    // A whole chunk with more of the caller's values after it is written from where it lies,
    // with no copy: HDF5 stores its c rows and the 4 bytes after them, which are then
    // overwritten in the file by the checksum. Other chunks are copied with their checksum
    // (the edge chunk filled with zeros).
    if (fd >= 0 && n == c && at + c < end) {
      if (H5Dwrite_chunk(id_.get(), H5P_DEFAULT, 0, offset.data(), c * size + 4, values) < 0) {
        fail("cannot be written (" + hdf5Message() + ")");
      }
      unsigned char checksum[4];
      encodeLittle(sum, checksum);
      const haddr_t address = chunkAddress(id_.get(), offset.data(), c * size + 4);
      if (address == HADDR_UNDEF ||
          ::pwrite(fd, checksum, 4, static_cast<off_t>(address + c * size)) != 4) {
        fail("cannot be written (the checksum of the chunk at row " + std::to_string(at) + ")");
      }
      continue;
    }
    spare.assign(c * size + 4, 0);
    std::memcpy(spare.data(), values, n * size);
    encodeLittle(n == c ? sum : fletcher32(spare.data(), c * size), spare.data() + c * size);
    if (H5Dwrite_chunk(id_.get(), H5P_DEFAULT, 0, offset.data(), spare.size(), spare.data()) < 0) {
      fail("cannot be written (" + hdf5Message() + ")");
    }
  }
  return true;
}

namespace {
// A stored chunk of exactly `size` bytes, read with pread straight into `into` (no copy in
// HDF5); false when its address or size is not what the caller expects.
bool readPlain(int fd, hid_t dataset, const hsize_t* offset, unsigned char* into,
               std::size_t size) {
  const haddr_t address = chunkAddress(dataset, offset, size);
  if (address == HADDR_UNDEF) return false;
  for (std::size_t done = 0; done < size;) {
    const ssize_t n = ::pread(fd, into + done, size - done, static_cast<off_t>(address + done));
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}
}  // namespace

bool Dataset::writeDeflated(const void* data, Type memory, std::uint64_t first,
                            std::uint64_t rows) const {
#ifdef H5_HAVE_PARALLEL
  return false;
#else
  if (dims_.size() < 2 || rows != 1) return false;
  // Filters: Fletcher32 alone, or deflate then Fletcher32, or shuffle, deflate, Fletcher32.
  Id dcpl(H5Dget_create_plist(id_.get()), H5Pclose);
  const int filters = H5Pget_nfilters(dcpl.get());
  if (H5Pget_layout(dcpl.get()) != H5D_CHUNKED || filters < 1 || filters > 3) return false;
  bool shuffle = false, deflate = false;
  unsigned level = 0;
  for (int f = 0; f < filters; ++f) {
    unsigned flags = 0, values[1] = {0};
    std::size_t n = 1;
    const H5Z_filter_t filter = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(f), &flags, &n,
                                               values, 0, nullptr, nullptr);
    if (f == filters - 1) {
      if (filter != H5Z_FILTER_FLETCHER32) return false;
    } else if (filter == H5Z_FILTER_SHUFFLE && f == 0 && filters == 3) {
      shuffle = true;
    } else if (filter == H5Z_FILTER_DEFLATE && f == filters - 2 && n >= 1) {
      deflate = true;
      level = values[0];
    } else {
      return false;
    }
  }
  Id stored(H5Dget_type(id_.get()), H5Tclose);
  if (H5Tequal(stored.get(), memoryType(memory)) <= 0) return false;
  std::vector<hsize_t> chunk(dims_.size());
  if (H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) !=
      static_cast<int>(chunk.size())) {
    return false;
  }
  std::uint64_t rowBytes = H5Tget_size(memoryType(memory));  // one index of the second dimension
  for (std::size_t j = 2; j < dims_.size(); ++j) {
    if (chunk[j] != dims_[j]) return false;
    rowBytes *= dims_[j];
  }
  if (chunk[0] != 1) return false;
  const std::uint64_t perChunk = chunk[1], count = (dims_[1] + perChunk - 1) / perChunk;
  const std::uint64_t chunkBytes = perChunk * rowBytes, valid = dims_[1] * rowBytes;
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::vector<std::vector<unsigned char>> packed(count);
  std::vector<int> failed(count, 0);
  // Chunks are independent: compressed on every host thread (zlib and the checksum only).
  Kokkos::parallel_for(
      "kfield::io::deflate_chunks",
      Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, static_cast<std::int64_t>(count)),
      [&](std::int64_t j) {
        const std::uint64_t at = std::uint64_t(j) * chunkBytes;
        std::vector<unsigned char> padded;
        const unsigned char* raw = bytes + at;
        if (at + chunkBytes > valid) {  // the edge chunk is stored whole, filled with zeros
          padded.assign(chunkBytes, 0);
          std::memcpy(padded.data(), raw, valid - at);
          raw = padded.data();
        }
        std::vector<unsigned char> shuffled;
        if (shuffle) {
          shuffled.resize(chunkBytes);
          shuffleBytes(raw, shuffled.data(), chunkBytes, H5Tget_size(memoryType(memory)));
          raw = shuffled.data();
        }
        std::vector<unsigned char>& out = packed[std::size_t(j)];
        uLongf size = deflate ? compressBound(static_cast<uLong>(chunkBytes)) : chunkBytes;
        out.resize(size + 4);
        if (!deflate) {
          std::memcpy(out.data(), raw, chunkBytes);
        } else if (!zlibStream(raw, chunkBytes, static_cast<int>(level), out, size)) {
          failed[std::size_t(j)] = 1;
          return;
        }
        encodeLittle(fletcher32(out.data(), size), out.data() + size);
        out.resize(size + 4);
      });
  for (std::uint64_t j = 0; j < count; ++j) {
    if (failed[j]) fail("zlib could not compress chunk " + std::to_string(j));
    std::vector<hsize_t> offset(dims_.size(), 0);
    offset[0] = first, offset[1] = j * perChunk;
    if (H5Dwrite_chunk(id_.get(), H5P_DEFAULT, 0, offset.data(), packed[j].size(),
                       packed[j].data()) < 0) {
      fail("cannot be written (" + hdf5Message() + ")");
    }
  }
  return true;
#endif
}

bool Dataset::readDirect(void* out, Type memory, std::uint64_t first, std::uint64_t rows) const {
  std::uint64_t size = 0;  // bytes a row
  const std::uint64_t c = directChunk(memory, size);
  if (c == 0) return false;
  const std::uint64_t bytes = c * size;
  std::vector<unsigned char> spare;
  auto* to = static_cast<unsigned char*>(out);
  const std::uint64_t end = first + rows;
  const int fd = plainDescriptor(id_.get());
  for (std::uint64_t start = first / c * c; start < end; start += c) {
    std::vector<hsize_t> offset(dims_.size(), 0);
    offset[0] = start;
    hsize_t stored = 0;
    // A chunk never written (fill values), or of another size: HDF5 reads the dataset.
    if (H5Dget_chunk_storage_size(id_.get(), offset.data(), &stored) < 0 || stored != bytes + 4) {
      hdf5Message();
      return false;
    }
    // A chunk with room for its checksum after it in `out` (the next chunk's place, read
    // next) is read in place; others go through a spare buffer.
    const bool inPlace = start >= first && start + c < end;
    if (!inPlace) spare.resize(bytes + 4);
    unsigned char* chunk = inPlace ? to + (start - first) * size : spare.data();
    std::uint32_t mask = 0;
    // Straight from the file when it can be; else through HDF5 (HDF5 2.0 takes the size too).
    if (fd < 0 || !readPlain(fd, id_.get(), offset.data(), chunk, bytes + 4)) {
#if H5_VERSION_GE(2, 0, 0)
      std::size_t room = bytes + 4;
      const herr_t status =
          H5Dread_chunk2(id_.get(), H5P_DEFAULT, offset.data(), &mask, chunk, &room);
#else
      const herr_t status = H5Dread_chunk(id_.get(), H5P_DEFAULT, offset.data(), &mask, chunk);
#endif
      if (status < 0) fail("cannot be read (HDF5: " + hdf5Message() + ")");
    }
    if (mask != 0) return false;  // the checksum was skipped when it was written
    const std::uint32_t want = decodeLittle(chunk + bytes);
    const std::uint32_t got = fletcher32(chunk, bytes);
    // HDF5 before 1.6.3 stored the checksum's bytes swapped in pairs: HDF5 accepts both.
    const std::uint32_t swapped = ((got & 0x00ff00ffu) << 8) | ((got >> 8) & 0x00ff00ffu);
    if (want != got && want != swapped) {
      fail("checksum mismatch (Fletcher32): the file is corrupted (the chunk at " +
           std::string(dims_.size() == 1 ? "element " : "row ") + std::to_string(start) + ")");
    }
    if (!inPlace) {
      const std::uint64_t from = std::max(first, start), until = std::min(end, start + c);
      std::memcpy(to + (from - first) * size, chunk + (from - start) * size, (until - from) * size);
    }
  }
  return true;
}

}  // namespace kfield::io::impl
