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
  if (!has("format") || file.stringAttribute("format") != "kfield") {
    file.fail("an HDF5 file, but not one kfield wrote (no format = \"kfield\" attribute)");
  }
  const std::int64_t version = file.intAttribute("format_version");
  if (version != kFormatVersion) {
    file.fail("format version " + std::to_string(version) + (version > kFormatVersion ? ", newer than" : ", not") +
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

[[noreturn]] void systemFailure(const std::string& path, const std::string& what) {
  throw FileError("kfield::io", path, what + " (" + std::strerror(errno) + ")");
}

void syncPath(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? O_RDONLY | O_DIRECTORY : O_RDONLY);
  if (fd < 0) systemFailure(path, "cannot open it to flush it to disk");
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0) systemFailure(path, "cannot flush it to disk");
}

std::string folderOf(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

}  // namespace

namespace {
void checkKeep(const std::string& path, int keep) {
  if (keep < 1) {
    throw FileError("kfield::io", path, "keep = " + std::to_string(keep) + " (must be >= 1)");
  }
}

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
    : path_((checkKeep(path, keep), dropCached(path), std::move(path))), keep_(keep),
      file_(File::overwrite(path_ + ".partial")) {}

AtomicFile::~AtomicFile() {
  if (committed_) return;
  file_ = File::closed();
  std::remove((path_ + ".partial").c_str());
}

void AtomicFile::commit() {
  const std::string partial = path_ + ".partial";
  file_.close();
  syncPath(partial, false);
  auto version = [&](int j) { return path_ + "." + std::to_string(j); };
  if (keep_ >= 2 && exists(path_)) {
    for (int j = keep_ - 1; j >= 2; --j) {
      if (exists(version(j - 1)) && std::rename(version(j - 1).c_str(), version(j).c_str()) != 0) {
        systemFailure(version(j), "cannot keep the previous version");
      }
    }
    std::remove(version(1).c_str());
    if (::link(path_.c_str(), version(1).c_str()) != 0) {
      systemFailure(version(1), "cannot keep the previous version");
    }
  }
  if (std::rename(partial.c_str(), path_.c_str()) != 0) {
    systemFailure(path_, "cannot rename " + partial + " over it");
  }
  syncPath(folderOf(path_), true);
  committed_ = true;
}

void writeAtomically(const std::string& path, int keep, const std::function<void(File&)>& body) {
  AtomicFile out(path, keep);
  body(out.file());
  out.commit();
}

}  // namespace kfield::io::impl
