// What every kfield HDF5 file shares (docs/file-format.md): the format attributes and the
// provenance group on write; on read, the checks that the file is kfield's, of a version this
// build reads and of the kind asked for. Writes are atomic.
#ifndef KFIELD_IO_SRC_FORMAT_HPP
#define KFIELD_IO_SRC_FORMAT_HPP

#include "Hdf5.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/io/Provenance.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/SimulationCarry.hpp"

#include <functional>
#include <string>

namespace kfield::io::impl {

constexpr std::int64_t kFormatVersion = 1;

// Creates the file's root attributes (format, version, kind) and /provenance.
void writeHeader(const File& file, const std::string& kind);
// Opens a kfield file of this kind, refusing another kind, another format or a newer version.
File openKind(const std::string& path, const std::string& kind);
// The kind a kfield file says it is (refusing what is not a kfield file).
std::string kindOf(const File& file);
Provenance readProvenance(const File& file);

// Writes `path` as a whole or not at all: the body writes PATH.partial, which is flushed to
// disk and renamed over PATH; with keep >= 2 the previous versions stay as PATH.1 (newest) up
// to PATH.<keep - 1>. At every moment PATH (or, during the rename, PATH.1) is a complete file.
void writeAtomically(const std::string& path, int keep, const std::function<void(File&)>& body);

// /restart in an export: the carry and the identity of the program and network (Restart.cpp).
void writeRestart(const Group& root, const TracedProgram& program, const Network& network,
                  const SimulationCarry& carry);

// The same for a file written over time (an export): PATH.partial until commit(); dropped
// (PATH untouched) when destroyed uncommitted.
class AtomicFile {
 public:
  AtomicFile(std::string path, int keep);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  File& file() { return file_; }
  void commit();

 private:
  std::string path_;
  int keep_;
  File file_;
  bool committed_ = false;
};

}  // namespace kfield::io::impl

#endif
