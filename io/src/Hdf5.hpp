// kfield's own thin RAII layer over HDF5's C library (private to io/): handles that close
// themselves, groups with typed attributes and datasets, and every failure turned into one
// FileError naming the file, the object and HDF5's innermost message.
#ifndef KFIELD_IO_SRC_HDF5_HPP
#define KFIELD_IO_SRC_HDF5_HPP

#include "kfield/io/FileError.hpp"

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace kfield::io::impl {

// An HDF5 identifier that closes itself.
class Id {
 public:
  using Close = herr_t (*)(hid_t);
  Id() = default;
  Id(hid_t id, Close close) : id_(id), close_(close) {}
  Id(Id&& o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
  Id& operator=(Id&& o) noexcept;
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  ~Id() { reset(); }
  hid_t get() const { return id_; }
  void reset();
  void release() { id_ = -1; }  // the caller closes it

 private:
  hid_t id_ = -1;
  Close close_ = nullptr;
};

// The element types kfield stores, and their names in messages ("float64", "uint64", ...).
enum class Type { Float64, Int64, Int32, UInt64, UInt8 };
const char* typeName(Type type);
hid_t memoryType(Type type);  // the native type of values of this type in memory
template <class T>
constexpr Type typeOf();
template <>
constexpr Type typeOf<double>() {
  return Type::Float64;
}
template <>
constexpr Type typeOf<std::int64_t>() {
  return Type::Int64;
}
template <>
constexpr Type typeOf<std::int32_t>() {
  return Type::Int32;
}
template <>
constexpr Type typeOf<std::uint64_t>() {
  return Type::UInt64;
}
template <>
constexpr Type typeOf<unsigned char>() {
  return Type::UInt8;
}

// How a dataset is laid out: chunks of about `chunkElements` (along the first dimension, whole
// rows), Fletcher32 checksums per chunk, deflate level 0 (off) to 9 (after HDF5's shuffle).
struct Storage {
  std::uint64_t chunkElements = std::uint64_t(1) << 20;
  bool fletcher32 = true;
  int deflate = 0;
  bool extendable = false;      // the first dimension grows (Dataset::extend)
  bool contiguous = false;      // no chunks (and so no checksum or compression): scratch data
  std::uint64_t chunkRows = 0;  // rows of the first dimension a chunk holds; 0: as many as fit
};

class Dataset;

// A group of a file (the root is the file's "/").
class Group {
 public:
  const std::string& file() const { return file_; }
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& what) const;  // "FILE: PATH: what"

  Group createGroup(const std::string& name) const;
  Group group(const std::string& name) const;  // refuses a missing group by name
  bool has(const std::string& name) const;

  void setAttribute(const std::string& name, const std::string& value) const;
  void setAttribute(const std::string& name, std::int64_t value) const;
  void setAttribute(const std::string& name, double value) const;
  std::string stringAttribute(const std::string& name) const;
  std::int64_t intAttribute(const std::string& name) const;
  double doubleAttribute(const std::string& name) const;
  std::vector<std::string> attributeNames() const;
  std::string attributeText(const std::string& name) const;  // any scalar, as text
  bool isGroup(const std::string& name) const;
  std::vector<std::string> members() const;  // names of groups and datasets, sorted

  template <class T>
  Dataset create(const std::string& name, const std::vector<std::uint64_t>& dims,
                 const Storage& storage = {}) const;
  template <class T>
  void write(const std::string& name, const std::vector<std::uint64_t>& dims, const T* data,
             const Storage& storage = {}) const;
  Dataset dataset(const std::string& name) const;  // refuses a missing dataset by name

 protected:
  Group(Id id, std::string file, std::string path)
      : id_(std::move(id)), file_(std::move(file)), path_(std::move(path)) {}
  std::string child(const std::string& name) const;
  Id id_;
  std::string file_, path_;
};

class Dataset {
 public:
  const std::string& path() const { return path_; }
  [[noreturn]] void fail(const std::string& what) const;  // "FILE: PATH: what"
  std::vector<std::uint64_t> dims() const { return dims_; }
  std::uint64_t elements() const;  // saturates instead of overflowing
  // Refuses, naming the dataset, one whose values (of `elementBytes` each) would not fit in
  // this machine's memory: called before anything sized by the file is allocated.
  void requireFits(std::uint64_t elementBytes) const;
  void requireFits(std::uint64_t elementBytes, std::uint64_t rows) const;  // `rows` rows of it
  // Refuses a dataset some of whose rows [first, first + rows) were never written (chunks
  // missing, contiguous storage smaller than its shape): kfield writes every value it keeps, a
  // crafted file may declare 2^40 rows and hold none.
  void requireStored(std::uint64_t first, std::uint64_t rows) const;
  Type type() const;  // refuses a type kfield does not store
  bool checksummed() const;
  // Refuses (naming the dataset) another type or another shape.
  void require(Type type, const std::vector<std::uint64_t>& dims) const;
  // The rows [first, first + rows) of the first dimension (all of it: 0, dims[0]).
  template <class T>
  void read(T* out, std::uint64_t first, std::uint64_t rows) const;
  template <class T>
  void read(T* out) const {
    read(out, 0, dims_.empty() ? 1 : dims_[0]);
  }
  template <class T>
  std::vector<T> readAll() const;
  template <class T>
  void writeRows(const T* data, std::uint64_t first, std::uint64_t rows) const;
  // The same with the memory's element type given: binary64 values held as their 64-bit
  // words are read and written as Float64, bits unchanged, with no copy.
  void readRaw(void* out, Type memory, std::uint64_t first, std::uint64_t rows) const;
  void writeRaw(const void* data, Type memory, std::uint64_t first, std::uint64_t rows) const;
  void extend(std::uint64_t rows);  // an extendable dataset's first dimension, to `rows`

 private:
  friend class Group;
  Dataset(Id id, const Group& at, std::string path);
  struct Rows {
    Id file, memory;
  };
  Rows select(std::uint64_t first, std::uint64_t rows) const;  // refuses rows outside
  // Chunks of whole rows of a dataset whose one filter is Fletcher32 are read and written
  // whole with kfield's own checksum (Checksums.hpp), bypassing HDF5's filter pipeline; false
  // when that does not apply (then HDF5 does it).
  std::uint64_t directChunk(Type memory, std::uint64_t& rowBytes) const;  // chunk rows, or 0
  bool writeDirect(const void* data, Type memory, std::uint64_t first, std::uint64_t rows) const;
  bool readDirect(void* out, Type memory, std::uint64_t first, std::uint64_t rows) const;
  // One row (of the first dimension) of a dataset filtered by Fletcher32 (after shuffle and
  // deflate, or deflate, or alone), whose chunks are one row deep and whole in every dimension
  // after the second: its chunks are compressed in parallel and written directly (what HDF5's
  // pipeline would store).
  bool writeDeflated(const void* data, Type memory, std::uint64_t first, std::uint64_t rows) const;
  Id id_;
  std::string file_, path_;
  std::vector<std::uint64_t> dims_;
};

// A file, open for reading or newly created (truncating any file of that name).
class File : public Group {
 public:
  // Refuses, naming the file: missing, a directory, unreadable, not HDF5, damaged.
  static File open(const std::string& path);
  static File overwrite(const std::string& path);       // creates it, truncating one of that name
  static File closed() { return File(Id(), "", "/"); }  // no file
  void close();        // flushes and closes, reporting a failure (a destructor cannot)
  void flush() const;  // everything written so far, to the file (not yet to disk)
  // From here on HDF5 orders its writes so that the file is whole after every flush, also when
  // the writer is killed (single-writer/multiple-reader mode): objects are no longer created,
  // datasets only grow and are written. open() reads such a file, finished or not.
  void startSwmr() const;
  // After a write failed (a full disk): HDF5's later writes to the file (the flush when it is
  // closed) go nowhere, so the file stays as its last successful write left it, rather than
  // holding metadata that points past its end.
  void abandon() const;

 private:
  using Group::Group;
};

// HDF5's innermost message for the failure just seen (its stack is printed nowhere).
std::string hdf5Message();

}  // namespace kfield::io::impl

#endif
