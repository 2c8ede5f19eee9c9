// What every kfield HDF5 file shares (docs/file-format.md): the format attributes and the
// provenance group on write; on read, the checks that the file is kfield's, of a version this
// build reads and of the kind asked for. Writes are atomic.
#ifndef KFIELD_IO_SRC_FORMAT_HPP
#define KFIELD_IO_SRC_FORMAT_HPP

#include "Hdf5.hpp"
#include "kfield/field/TracedProgram.hpp"
#include "kfield/io/PartialFile.hpp"
#include "kfield/io/Provenance.hpp"
#include "kfield/io/Restart.hpp"
#include "kfield/net/Network.hpp"
#include "kfield/sim/SimulationCarry.hpp"

#include <functional>
#include <string>

namespace kfield::io::impl {

constexpr std::int64_t kFormatVersion =
    2;  // 2: fixed-length strings, HDF5 1.10 metadata with checksums

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

// /restart in an export (Restart.cpp): the identity of the program and network, the inputs,
// and two slots for the run's carry, written in turn at each commit (the last commit's slot is
// whole while the other is written). Created before the file's single-writer mode starts.
struct RestartSlots {
  std::vector<Dataset> words;  // two: each slot's planes, flattened (float64, grows as needed)
  std::vector<Dataset>
      layout;  // one, [2, 6 + B] int64: each slot's plane rows, motion words, rounds
};
RestartSlots createRestart(const Group& root, const TracedProgram& program, const Network& network,
                           const SimulationCarry& carry, const RunInputs& inputs);
void writeCarry(RestartSlots& slots, int slot, const SimulationCarry& carry);
constexpr std::uint64_t kLayoutWords =
    6;  // a slot's layout: the five planes' rows, the motion's values
// The slot of the last recorded commit (/simulation/commits), checked against the format: its
// layout row (plane rows, motion values, then the B samples' rounds) and its values.
struct LastCarry {
  std::uint64_t slot;
  std::vector<std::int64_t> layout;
  Dataset words;
  std::uint64_t needed;  // values of `words` the layout uses
};
LastCarry lastCarry(const File& file, const Group& restart, std::uint64_t samples);

// The same for a file written over time (an export): PATH.partial (claimed by PartialFile: one
// writer at a time) until commit(); dropped (PATH untouched) when destroyed uncommitted.
class AtomicFile {
 public:
  AtomicFile(std::string path, int keep);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  File& file() { return file_; }
  void commit();

 private:
  int keep_;
  PartialFile partial_;
  File file_;
};

}  // namespace kfield::io::impl

#endif
