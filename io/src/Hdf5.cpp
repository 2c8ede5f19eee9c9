#include "Hdf5.hpp"

#include "kfield/impl/Printable.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/rt/Topology.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kfield::io::impl {

namespace {

constexpr const char* kWho = "kfield::io";

// HDF5 prints its error stack to stderr by default: kfield reports the message itself.
void silence() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

hid_t fileType(Type t) {
  switch (t) {
    case Type::Float64: return H5T_IEEE_F64LE;
    case Type::Int64: return H5T_STD_I64LE;
    case Type::Int32: return H5T_STD_I32LE;
    case Type::UInt64: return H5T_STD_U64LE;
    case Type::UInt8: return H5T_STD_U8LE;
  }
  return -1;
}

}  // namespace

hid_t memoryType(Type t) {
  switch (t) {
    case Type::Float64: return H5T_NATIVE_DOUBLE;
    case Type::Int64: return H5T_NATIVE_INT64;
    case Type::Int32: return H5T_NATIVE_INT32;
    case Type::UInt64: return H5T_NATIVE_UINT64;
    case Type::UInt8: return H5T_NATIVE_UCHAR;
  }
  return -1;
}

namespace {

// A stored type as a message names it.
std::string describeType(hid_t type) {
  const std::size_t bits = 8 * H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_FLOAT: return "float" + std::to_string(bits);
    case H5T_INTEGER:
      return (H5Tget_sign(type) == H5T_SGN_NONE ? "uint" : "int") + std::to_string(bits);
    case H5T_STRING: return "string";
    case H5T_COMPOUND: return "compound";
    default: return "another type";
  }
}

std::string describeDims(const std::vector<std::uint64_t>& dims) {
  std::string out = "[";
  for (std::size_t j = 0; j < dims.size(); ++j) out += (j ? ", " : "") + std::to_string(dims[j]);
  return out + "]";
}

// Strings are stored fixed-length (never variable-length: those live in a global heap whose
// damage HDF5 does not survive), with at most this many bytes.
constexpr std::size_t kMaxStringBytes = std::size_t(1) << 20;

Id stringType(std::size_t bytes) {
  Id t(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(t.get(), std::max<std::size_t>(bytes, 1));
  H5Tset_strpad(t.get(), H5T_STR_NULLPAD);
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  return t;
}

Id scalarSpace() { return Id(H5Screate(H5S_SCALAR), H5Sclose); }

}  // namespace

std::string hdf5Message() {
  std::string innermost;
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_DOWNWARD,
      [](unsigned, const H5E_error2_t* e, void* out) -> herr_t {
        if (e->desc && *e->desc) *static_cast<std::string*>(out) = e->desc;
        return 0;
      },
      &innermost);
  H5Eclear2(H5E_DEFAULT);
  if (innermost.empty()) return "HDF5 gave no reason";
  // A failed system call: HDF5's own message spans lines and lists buffers; the system's
  // words say it ("file write failed: File too large").
  const std::string quoted = "error message = '";
  const auto at = innermost.find(quoted);
  if (at != std::string::npos) {
    const auto end = innermost.find('\'', at + quoted.size());
    const auto colon = innermost.find(':');
    return innermost.substr(0, colon) + ": " +
           innermost.substr(at + quoted.size(), end - at - quoted.size());
  }
  for (char& c : innermost) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return kfield::impl::printable(innermost, 1000);
}

const char* typeName(Type type) {
  switch (type) {
    case Type::Float64: return "float64";
    case Type::Int64: return "int64";
    case Type::Int32: return "int32";
    case Type::UInt64: return "uint64";
    case Type::UInt8: return "uint8";
  }
  return "?";
}

Id& Id::operator=(Id&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_, close_ = o.close_;
    o.id_ = -1;
  }
  return *this;
}

void Id::reset() {
  if (id_ >= 0 && close_) close_(id_);
  id_ = -1;
}

// ---- groups ---------------------------------------------------------------------------------

void Group::fail(const std::string& what) const {
  throw FileError(kWho, file_, (path_ == "/" ? "" : path_ + ": ") + what);
}

std::string Group::child(const std::string& name) const {
  return path_ == "/" ? "/" + name : path_ + "/" + name;
}

bool Group::has(const std::string& name) const {
  const htri_t found = H5Lexists(id_.get(), name.c_str(), H5P_DEFAULT);
  if (found < 0) fail("cannot look up " + child(name) + " (" + hdf5Message() + ")");
  return found > 0;
}

Group Group::createGroup(const std::string& name) const {
  Id g(H5Gcreate2(id_.get(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  if (g.get() < 0) fail("cannot create group " + name + " (" + hdf5Message() + ")");
  return Group(std::move(g), file_, child(name));
}

Group Group::group(const std::string& name) const {
  if (!has(name)) fail("no group " + child(name) + " (the file is not complete)");
  Id g(H5Gopen2(id_.get(), name.c_str(), H5P_DEFAULT), H5Gclose);
  if (g.get() < 0) fail(child(name) + " is not a group (" + hdf5Message() + ")");
  return Group(std::move(g), file_, child(name));
}

std::vector<std::string> Group::members() const {
  std::vector<std::string> names;
  const herr_t walked = H5Literate(
      id_.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      // H5L_info_t in HDF5 1.10, H5L_info2_t from 1.12: the lambda takes either.
      [](hid_t, const char* name, const auto*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  if (walked < 0) fail("cannot list its members (" + hdf5Message() + ")");
  return names;
}

std::vector<std::string> Group::attributeNames() const {
  std::vector<std::string> names;
  const herr_t walked = H5Aiterate2(
      id_.get(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  if (walked < 0) fail("cannot list its attributes (" + hdf5Message() + ")");
  return names;
}

void Group::setAttribute(const std::string& name, const std::string& value) const {
  if (value.size() > kMaxStringBytes) {
    fail("attribute " + name + " of " + std::to_string(value.size()) + " bytes (at most " +
         std::to_string(kMaxStringBytes) + ")");
  }
  Id type = stringType(value.size());
  Id space = scalarSpace();
  Id a(H5Acreate2(id_.get(), name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
       H5Aclose);
  std::string padded = value;
  padded.resize(std::max<std::size_t>(value.size(), 1), '\0');
  if (a.get() < 0 || H5Awrite(a.get(), type.get(), padded.data()) < 0) {
    fail("cannot write attribute " + name + " (" + hdf5Message() + ")");
  }
}

void Group::setAttribute(const std::string& name, std::int64_t value) const {
  Id space = scalarSpace();
  Id a(H5Acreate2(id_.get(), name.c_str(), H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
       H5Aclose);
  if (a.get() < 0 || H5Awrite(a.get(), H5T_NATIVE_INT64, &value) < 0) {
    fail("cannot write attribute " + name + " (" + hdf5Message() + ")");
  }
}

void Group::setAttribute(const std::string& name, double value) const {
  Id space = scalarSpace();
  Id a(H5Acreate2(id_.get(), name.c_str(), H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
       H5Aclose);
  if (a.get() < 0 || H5Awrite(a.get(), H5T_NATIVE_DOUBLE, &value) < 0) {
    fail("cannot write attribute " + name + " (" + hdf5Message() + ")");
  }
}

namespace {
// An attribute opened for reading, checked to be a scalar of the given class.
Id openAttribute(const Group& g, hid_t where, const std::string& name, H5T_class_t expected,
                 const char* expectedName) {
  if (H5Aexists(where, name.c_str()) <= 0) {
    hdf5Message();
    g.fail("no attribute " + name);
  }
  Id a(H5Aopen(where, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (a.get() < 0) g.fail("cannot open attribute " + name + " (" + hdf5Message() + ")");
  Id type(H5Aget_type(a.get()), H5Tclose);
  Id space(H5Aget_space(a.get()), H5Sclose);
  if (H5Tget_class(type.get()) != expected || H5Sget_simple_extent_npoints(space.get()) != 1) {
    g.fail("attribute " + name + " is " + describeType(type.get()) + ", expected a " +
           expectedName);
  }
  return a;
}
}  // namespace

std::string Group::stringAttribute(const std::string& name) const {
  Id a = openAttribute(*this, id_.get(), name, H5T_STRING, "string");
  Id stored(H5Aget_type(a.get()), H5Tclose);
  if (H5Tis_variable_str(stored.get()) != 0) {
    fail("attribute " + name +
         " is a variable-length string: kfield writes and reads fixed-length "
         "strings only (a file of format version 1, or not written by kfield)");
  }
  const std::size_t size = H5Tget_size(stored.get());
  if (size == 0 || size > kMaxStringBytes) {
    fail("attribute " + name + " is a string of " + std::to_string(size) + " bytes (at most " +
         std::to_string(kMaxStringBytes) + ")");
  }
  std::string out(size, '\0');
  Id type(H5Tcopy(stored.get()), H5Tclose);  // read as stored: no conversion between paddings
  if (H5Aread(a.get(), type.get(), out.data()) < 0) {
    fail("cannot read attribute " + name + " (" + hdf5Message() + ")");
  }
  return out.substr(0, out.find('\0'));
}

std::int64_t Group::intAttribute(const std::string& name) const {
  Id a = openAttribute(*this, id_.get(), name, H5T_INTEGER, "integer");
  std::int64_t value = 0;
  if (H5Aread(a.get(), H5T_NATIVE_INT64, &value) < 0) {
    fail("cannot read attribute " + name + " (" + hdf5Message() + ")");
  }
  return value;
}

double Group::doubleAttribute(const std::string& name) const {
  Id a = openAttribute(*this, id_.get(), name, H5T_FLOAT, "float");
  double value = 0;
  if (H5Aread(a.get(), H5T_NATIVE_DOUBLE, &value) < 0) {
    fail("cannot read attribute " + name + " (" + hdf5Message() + ")");
  }
  return value;
}

std::string Group::attributeText(const std::string& name) const {
  Id a(H5Aopen(id_.get(), name.c_str(), H5P_DEFAULT), H5Aclose);
  if (a.get() < 0) fail("cannot open attribute " + name + " (" + hdf5Message() + ")");
  Id type(H5Aget_type(a.get()), H5Tclose);
  switch (H5Tget_class(type.get())) {
    case H5T_STRING: return "\"" + stringAttribute(name) + "\"";
    case H5T_INTEGER: return std::to_string(intAttribute(name));
    case H5T_FLOAT: {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", doubleAttribute(name));
      return text;
    }
    default: return "(" + describeType(type.get()) + ")";
  }
}

bool Group::isGroup(const std::string& name) const {
  // H5Oopen and H5Iget_type: the same in HDF5 1.10, 1.12 and 1.14 (H5Oget_info is not).
  Id object(H5Oopen(id_.get(), name.c_str(), H5P_DEFAULT), H5Oclose);
  if (object.get() < 0) fail("cannot read " + child(name) + " (" + hdf5Message() + ")");
  return H5Iget_type(object.get()) == H5I_GROUP;
}

template <class T>
Dataset Group::create(const std::string& name, const std::vector<std::uint64_t>& dims,
                      const Storage& storage) const {
  std::vector<hsize_t> d(dims.begin(), dims.end()), most(d);
  if (storage.extendable) most.at(0) = H5S_UNLIMITED;
  Id space(H5Screate_simple(static_cast<int>(d.size()), d.data(), most.data()), H5Sclose);
  Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  std::uint64_t rowElements = 1;
  for (std::size_t j = 1; j < d.size(); ++j) rowElements *= d[j];
  // Empty datasets have no chunks to check (unless they grow).
  if (!storage.contiguous && (storage.extendable || (!d.empty() && d[0] * rowElements > 0))) {
    std::vector<hsize_t> chunk(d);
    for (auto& c : chunk) c = std::max<hsize_t>(c, 1);
    chunk[0] =
        storage.chunkRows > 0
            ? storage.chunkRows
            : std::max<hsize_t>(1, storage.chunkElements / std::max<std::uint64_t>(rowElements, 1));
    if (!storage.extendable) chunk[0] = std::min<hsize_t>(chunk[0], d[0]);
    if (chunk.size() >= 2 && rowElements > storage.chunkElements) {  // rows too big: split them
      const std::uint64_t inner = rowElements / std::max<hsize_t>(d[1], 1);
      chunk[1] = std::clamp<hsize_t>(storage.chunkElements / std::max<std::uint64_t>(inner, 1), 1,
                                     std::max<hsize_t>(d[1], 1));
    }
    H5Pset_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data());
    // Compressed values are shuffled first (byte k of every value together): numbers whose
    // high bytes repeat then deflate faster and smaller.
    if (storage.deflate > 0) H5Pset_shuffle(dcpl.get());
    if (storage.deflate > 0) H5Pset_deflate(dcpl.get(), static_cast<unsigned>(storage.deflate));
    if (storage.fletcher32) H5Pset_fletcher32(dcpl.get());
  }
  Id ds(H5Dcreate2(id_.get(), name.c_str(), fileType(typeOf<T>()), space.get(), H5P_DEFAULT,
                   dcpl.get(), H5P_DEFAULT),
        H5Dclose);
  if (ds.get() < 0) fail("cannot create dataset " + name + " (" + hdf5Message() + ")");
  return Dataset(std::move(ds), *this, child(name));
}

template <class T>
void Group::write(const std::string& name, const std::vector<std::uint64_t>& dims, const T* data,
                  const Storage& storage) const {
  Dataset ds = create<T>(name, dims, storage);
  if (ds.elements() > 0) ds.writeRows(data, 0, dims.empty() ? 1 : dims[0]);
}

Dataset Group::dataset(const std::string& name) const {
  if (!has(name)) fail("no dataset " + child(name) + " (the file is not complete)");
  Id ds(H5Dopen2(id_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
  if (ds.get() < 0) fail(child(name) + " is not a dataset (" + hdf5Message() + ")");
  return Dataset(std::move(ds), *this, child(name));
}

// ---- datasets -------------------------------------------------------------------------------

Dataset::Dataset(Id id, const Group& at, std::string path)
    : id_(std::move(id)), file_(at.file()), path_(std::move(path)) {
  Id space(H5Dget_space(id_.get()), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("cannot read its shape (" + hdf5Message() + ")");
  std::vector<hsize_t> d(static_cast<std::size_t>(rank));
  H5Sget_simple_extent_dims(space.get(), d.data(), nullptr);
  dims_.assign(d.begin(), d.end());
}

void Dataset::fail(const std::string& what) const {
  throw FileError(kWho, file_, path_ + ": " + what);
}

std::uint64_t Dataset::elements() const {
  std::uint64_t n = 1;
  for (auto d : dims_) n = kfield::impl::product({n, d});
  return n;
}

void Dataset::requireFits(std::uint64_t elementBytes) const {
  requireFits(elementBytes, dims_.empty() ? 1 : dims_[0]);
}

void Dataset::requireFits(std::uint64_t elementBytes, std::uint64_t rows) const {
  std::vector<std::uint64_t> part = dims_;
  if (!part.empty()) part[0] = std::min(part[0], rows);
  std::uint64_t bytes = elementBytes;
  for (auto d : part) bytes = kfield::impl::product({bytes, d});
  const std::uint64_t limit = hostMemoryBytes();
  if (bytes > limit) {
    fail(std::string(part == dims_ ? "its " : "the share's ") + describeDims(part) +
         " values need " + kfield::impl::bytesText(bytes) + ", but this machine's memory is " +
         kfield::impl::bytesText(limit));
  }
}

void Dataset::requireStored(std::uint64_t first, std::uint64_t rows) const {
  if (elements() == 0 || rows == 0) return;
  Id dcpl(H5Dget_create_plist(id_.get()), H5Pclose);
  const H5D_layout_t layout = H5Pget_layout(dcpl.get());
  if (layout == H5D_CHUNKED) {
    std::vector<hsize_t> chunk(dims_.size());
    if (H5Pget_chunk(dcpl.get(), static_cast<int>(chunk.size()), chunk.data()) !=
        static_cast<int>(chunk.size())) {
      fail("its chunks cannot be read (" + hdf5Message() + ")");
    }
    for (hsize_t c : chunk) {
      if (c == 0) fail("has a chunk dimension of 0");
    }
    // Every chunk the rows touch, in order: the first one never written is named.
    std::vector<hsize_t> at(dims_.size(), 0);
    at[0] = first / chunk[0] * chunk[0];
    while (at[0] < first + rows) {
      unsigned mask = 0;
      haddr_t address = HADDR_UNDEF;
      hsize_t size = 0;
      if (H5Dget_chunk_info_by_coord(id_.get(), at.data(), &mask, &address, &size) < 0 ||
          address == HADDR_UNDEF) {
        hdf5Message();
        fail("the chunk at " + describeDims(std::vector<std::uint64_t>(at.begin(), at.end())) +
             " of its shape " + describeDims(dims_) + " was never written");
      }
      std::size_t j = at.size();
      while (j-- > 0) {  // the next chunk, last dimension fastest
        at[j] += chunk[j];
        if (j == 0 || at[j] < dims_[j]) break;
        at[j] = 0;
      }
    }
  } else if (layout == H5D_CONTIGUOUS) {
    Id type(H5Dget_type(id_.get()), H5Tclose);
    const std::uint64_t bytes = kfield::impl::product({elements(), H5Tget_size(type.get())});
    if (H5Dget_storage_size(id_.get()) != bytes) {
      fail("stores " + std::to_string(H5Dget_storage_size(id_.get())) + " bytes of the " +
           std::to_string(bytes) + " its shape " + describeDims(dims_) + " needs");
    }
  }
}

Type Dataset::type() const {
  Id t(H5Dget_type(id_.get()), H5Tclose);
  for (Type k : {Type::Float64, Type::Int64, Type::Int32, Type::UInt64, Type::UInt8}) {
    if (H5Tequal(t.get(), fileType(k)) > 0) return k;
  }
  fail("its type " + describeType(t.get()) + " is none kfield stores");
}

bool Dataset::checksummed() const {
  Id dcpl(H5Dget_create_plist(id_.get()), H5Pclose);
  const int filters = H5Pget_nfilters(dcpl.get());
  for (int j = 0; j < filters; ++j) {
    unsigned flags = 0;
    std::size_t n = 0;
    if (H5Pget_filter2(dcpl.get(), static_cast<unsigned>(j), &flags, &n, nullptr, 0, nullptr,
                       nullptr) == H5Z_FILTER_FLETCHER32) {
      return true;
    }
  }
  return false;
}

void Dataset::require(Type t, const std::vector<std::uint64_t>& dims) const {
  Id stored(H5Dget_type(id_.get()), H5Tclose);
  if (H5Tequal(stored.get(), fileType(t)) <= 0) {
    fail("is " + describeType(stored.get()) + ", expected " + typeName(t));
  }
  if (dims_ != dims) fail("has shape " + describeDims(dims_) + ", expected " + describeDims(dims));
}

void Dataset::extend(std::uint64_t rows) {
  std::vector<hsize_t> d(dims_.begin(), dims_.end());
  d.at(0) = rows;
  if (H5Dset_extent(id_.get(), d.data()) < 0) fail("cannot grow (" + hdf5Message() + ")");
  dims_.at(0) = rows;
}

Dataset::Rows Dataset::select(std::uint64_t first, std::uint64_t rows) const {
  if (!dims_.empty() && (first > dims_[0] || rows > dims_[0] - first)) {
    fail("rows [" + std::to_string(first) + ", " + std::to_string(first + rows) +
         ") are outside its " + std::to_string(dims_[0]));
  }
  Rows at{Id(H5Dget_space(id_.get()), H5Sclose), Id()};
  if (dims_.empty()) {
    at.memory = Id(H5Screate(H5S_SCALAR), H5Sclose);
    return at;
  }
  std::vector<hsize_t> start(dims_.size(), 0), count(dims_.begin(), dims_.end());
  start[0] = first, count[0] = rows;
  H5Sselect_hyperslab(at.file.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
  at.memory = Id(H5Screate_simple(static_cast<int>(count.size()), count.data(), nullptr), H5Sclose);
  return at;
}

template <class T>
void Dataset::read(T* out, std::uint64_t first, std::uint64_t rows) const {
  readRaw(out, typeOf<T>(), first, rows);
}

void Dataset::readRaw(void* out, Type memory, std::uint64_t first, std::uint64_t rows) const {
  if (elements() == 0 || rows == 0) return;
  if (!dims_.empty() && first <= dims_[0] && rows <= dims_[0] - first &&
      readDirect(out, memory, first, rows)) {
    return;
  }
  const Rows at = select(first, rows);
  if (H5Dread(id_.get(), memoryType(memory), at.memory.get(), at.file.get(), H5P_DEFAULT, out) <
      0) {
    const std::string why = hdf5Message();
    if (checksummed() &&
        (why.find("Fletcher32") != std::string::npos || why.find("filter") != std::string::npos)) {
      fail("checksum mismatch (Fletcher32): the file is corrupted (HDF5: " + why + ")");
    }
    fail("cannot be read (HDF5: " + why + ")");
  }
}

template <class T>
std::vector<T> Dataset::readAll() const {
  requireFits(sizeof(T));
  std::vector<T> out(static_cast<std::size_t>(elements()));
  read(out.data());
  return out;
}

template <class T>
void Dataset::writeRows(const T* data, std::uint64_t first, std::uint64_t rows) const {
  writeRaw(data, typeOf<T>(), first, rows);
}

void Dataset::writeRaw(const void* data, Type memory, std::uint64_t first,
                       std::uint64_t rows) const {
  if (!dims_.empty() && first <= dims_[0] && rows <= dims_[0] - first &&
      (writeDirect(data, memory, first, rows) || writeDeflated(data, memory, first, rows))) {
    return;
  }
  const Rows at = select(first, rows);
  if (H5Dwrite(id_.get(), memoryType(memory), at.memory.get(), at.file.get(), H5P_DEFAULT, data) <
      0) {
    fail("cannot be written (" + hdf5Message() + ")");
  }
}

#define KFIELD_IO_TYPES(T)                                                                       \
  template Dataset Group::create<T>(const std::string&, const std::vector<std::uint64_t>&,       \
                                    const Storage&) const;                                       \
  template void Group::write<T>(const std::string&, const std::vector<std::uint64_t>&, const T*, \
                                const Storage&) const;                                           \
  template void Dataset::read<T>(T*, std::uint64_t, std::uint64_t) const;                        \
  template std::vector<T> Dataset::readAll<T>() const;                                           \
  template void Dataset::writeRows<T>(const T*, std::uint64_t, std::uint64_t) const;
KFIELD_IO_TYPES(double)
KFIELD_IO_TYPES(std::int64_t)
KFIELD_IO_TYPES(std::int32_t)
KFIELD_IO_TYPES(std::uint64_t)
KFIELD_IO_TYPES(unsigned char)
#undef KFIELD_IO_TYPES

// ---- files ----------------------------------------------------------------------------------

File File::open(const std::string& path) {
  silence();
  auto refuse = [&](const std::string& what) -> File { throw FileError(kWho, path, what); };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return refuse(errno == ENOENT ? "no such file" : std::string(std::strerror(errno)));
  }
  if (S_ISDIR(st.st_mode)) return refuse("is a directory, not an HDF5 file");
  if (!S_ISREG(st.st_mode))
    return refuse("is not a regular file (a device, a FIFO or a socket), not an HDF5 file");
  if (::access(path.c_str(), R_OK) != 0) return refuse("permission denied (cannot read it)");
  const htri_t isHdf5 = H5Fis_hdf5(path.c_str());
  if (isHdf5 == 0) return refuse("not an HDF5 file");
  if (isHdf5 < 0) return refuse("not a readable HDF5 file (HDF5: " + hdf5Message() + ")");
  // As a single-writer/multiple-reader reader first: a file whose writer was killed mid-run
  // (an export committed snapshot by snapshot) still says it is open for writing.
  // One attempt at each piece of metadata: a reader of a file being written would retry a
  // checksum mismatch for seconds, but a damaged file stays damaged.
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_metadata_read_attempts(fapl.get(), 1);
  H5Pset_file_locking(fapl.get(), false, true);  // as kfield writes (PartialFile locks)
  Id f(H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl.get()), H5Fclose);
  if (f.get() < 0) {
    hdf5Message();
    f = Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  }
  if (f.get() < 0) {
    return refuse("truncated or damaged HDF5 file (HDF5: " + hdf5Message() + ")");
  }
  return File(std::move(f), path, "/");
}

File File::overwrite(const std::string& path) {
  silence();
  // Large objects (chunks) start on page boundaries: the kernel copies whole pages into the
  // page cache rather than pages shifted by a few bytes.
  Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_alignment(fapl.get(), 1 << 16, 4096);
  // The file format of HDF5 1.10, in every HDF5 release that writes it: every piece of
  // metadata (superblock, object headers, chunk indexes) carries a checksum that HDF5 checks
  // when it reads it, so a damaged byte is refused rather than followed.
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V110, H5F_LIBVER_V110);
  // The writer holds its own lock (PartialFile); HDF5's, taken after it truncates, would
  // refuse a second writer only after damaging the first one's file.
  H5Pset_file_locking(fapl.get(), false, true);
  Id f(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
  if (f.get() < 0) {
    const std::string why = hdf5Message();
    throw FileError(kWho, path,
                    "cannot create it (" + (errno ? std::string(std::strerror(errno)) + "; " : "") +
                        "HDF5: " + why + ")");
  }
  return File(std::move(f), path, "/");
}

void File::flush() const {
  if (H5Fflush(id_.get(), H5F_SCOPE_GLOBAL) < 0) fail("cannot flush it (" + hdf5Message() + ")");
}

void File::startSwmr() const {
  if (H5Fstart_swmr_write(id_.get()) < 0)
    fail("cannot start writing it snapshot by snapshot (" + hdf5Message() + ")");
}

void File::abandon() const {
  void* handle = nullptr;
  if (H5Fget_vfd_handle(id_.get(), H5P_DEFAULT, &handle) < 0 || !handle) {
    hdf5Message();
    return;
  }
  const int fd = *static_cast<int*>(handle);  // the sec2 driver's descriptor
  const int nowhere = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (nowhere < 0) return;
  ::dup2(nowhere, fd);
  ::close(nowhere);
}

void File::close() {
  if (id_.get() < 0) return;
  const hid_t f = id_.get();
  if (H5Fflush(f, H5F_SCOPE_GLOBAL) < 0) fail("cannot flush it (" + hdf5Message() + ")");
  id_.release();
  if (H5Fclose(f) < 0) fail("cannot close it (" + hdf5Message() + ")");
}

}  // namespace kfield::io::impl
