#include "Format.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kfield::io::impl {

void writeHeader(const File& file, const std::string& kind) {
  file.setAttribute("format", std::string("kfield"));
  file.setAttribute("format_version", kFormatVersion);
  file.setAttribute("kind", kind);
  const Provenance p = currentProvenance();
  const Group g = file.createGroup("provenance");
  g.setAttribute("kfield_version", p.kfieldVersion);
  g.setAttribute("kfield_revision", p.kfieldRevision);
  g.setAttribute("kokkos_version", p.kokkosVersion);
  g.setAttribute("backends", p.backends);
  g.setAttribute("hdf5_version", p.hdf5Version);
  g.setAttribute("threads", p.threads);
  g.setAttribute("ranks", p.ranks);
  g.setAttribute("created", p.created);
  g.setAttribute("command_line", p.commandLine);
}

std::string kindOf(const File& file) {
  const auto names = file.attributeNames();
  auto has = [&](const char* n) { return std::find(names.begin(), names.end(), n) != names.end(); };
  // The version first (an integer): a version-1 file's strings are variable-length, which
  // this kfield does not read.
  if (has("format") && has("format_version") && file.intAttribute("format_version") == 1) {
    file.fail(
        "format version 1 (variable-length strings, metadata without checksums), written by "
        "an older kfield; this kfield reads version " +
        std::to_string(kFormatVersion) + " only: write it again");
  }
  if (!has("format") || file.stringAttribute("format") != "kfield") {
    file.fail("an HDF5 file, but not one kfield wrote (no format = \"kfield\" attribute)");
  }
  const std::int64_t version = file.intAttribute("format_version");
  if (version != kFormatVersion) {
    file.fail("format version " + std::to_string(version) +
              (version > kFormatVersion ? ", newer than" : ", not") +
              " the version this kfield reads (" + std::to_string(kFormatVersion) + ")");
  }
  return file.stringAttribute("kind");
}

File openKind(const std::string& path, const std::string& kind) {
  File file = File::open(path);
  const std::string found = kindOf(file);
  if (found != kind) file.fail("a " + found + " file, not a " + kind);
  return file;
}

Provenance readProvenance(const File& file) {
  const Group g = file.group("provenance");
  Provenance p;
  p.kfieldVersion = g.stringAttribute("kfield_version");
  p.kfieldRevision = g.stringAttribute("kfield_revision");
  p.kokkosVersion = g.stringAttribute("kokkos_version");
  p.backends = g.stringAttribute("backends");
  p.hdf5Version = g.stringAttribute("hdf5_version");
  p.threads = g.intAttribute("threads");
  p.ranks = g.intAttribute("ranks");
  p.created = g.stringAttribute("created");
  p.commandLine = g.stringAttribute("command_line");
  return p;
}

namespace {
// The version about to be replaced leaves the page cache first (its pages are clean: every
// version was synced when written): the new one is written beside it, and holding both in
// memory made writing the new one markedly slower (bench_io's Checkpoint/Write: about 1.5x).
void dropCached(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);  // advice: nothing to report if ignored
  ::close(fd);
}
}  // namespace

AtomicFile::AtomicFile(std::string path, int keep)
    : keep_(keep),
      partial_((dropCached(path), std::move(path))),
      file_(File::overwrite(partial_.partialPath())) {
  if (keep < 1)
    throw FileError("kfield::io", partial_.path(),
                    "keep = " + std::to_string(keep) + " (must be >= 1)");
}

AtomicFile::~AtomicFile() {
  file_ = File::closed();  // before the partial file is removed (PartialFile's destructor)
}

void AtomicFile::commit() {
  file_.close();
  partial_.commit(keep_);
}

void writeAtomically(const std::string& path, int keep, const std::function<void(File&)>& body) {
  AtomicFile out(path, keep);
  body(out.file());
  out.commit();
}

}  // namespace kfield::io::impl
