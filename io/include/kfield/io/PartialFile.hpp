// A file written whole or not at all, by one process at a time: the body goes to PATH.partial,
// which is claimed with an exclusive lock before a byte of it changes (a second writer is
// refused and damages nothing), and commit() flushes it to disk and renames it over PATH. PATH
// must be a regular file or absent: kfield never renames over a device, a folder or a FIFO.
// Destroyed uncommitted (an error, an exception), the partial file is removed.
//
//   io::PartialFile out("f.bits");
//   ::write(out.fd(), bytes, n);
//   out.commit();
#ifndef KFIELD_IO_PARTIALFILE_HPP
#define KFIELD_IO_PARTIALFILE_HPP

#include <string>

namespace kfield::io {

class PartialFile {
 public:
  // Refuses (FileError naming the file): PATH or PATH.partial that is not a regular file, a
  // folder that is missing or not writable, PATH.partial locked by another writer.
  explicit PartialFile(std::string path);
  ~PartialFile();
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  const std::string& path() const { return path_; }
  std::string partialPath() const { return path_ + ".partial"; }
  int fd() const { return fd_; }  // the partial file, open for writing, empty at first
  // Writes all of `data` at the partial file's current offset, refusing a short write (a full
  // disk) by name.
  void write(const void* data, std::size_t bytes) const;
  // Flushes the partial file to disk and renames it over PATH; with keep >= 2 the previous
  // versions stay as PATH.1 (newest) up to PATH.<keep - 1>, each replaced by a rename, so a
  // kill at any moment leaves every version there is whole.
  void commit(int keep = 1);
  bool committed() const { return fd_ < 0; }

  // For a file that stays open for writing once it holds something whole (an export whose
  // snapshots are committed as they are taken): flushes it to disk and renames it over PATH;
  // the writer goes on writing it, and keeps its lock (a second writer of PATH is refused)
  // until close(). Destroyed after publish(), the file stays as PATH.
  void publish();
  bool published() const { return published_; }
  void sync() const;  // flushes the file to disk
  void close();       // after publish(): flushes the file and lets go of it

 private:
  std::string path_;
  int fd_ = -1;
  bool published_ = false;
};

// Refuses (FileError naming it) `path` as a place to write a file: it exists and is not a
// regular file, or its folder is missing or not writable. What a command checks before work.
void requireWritableFile(const std::string& path);
// The same for a folder that files will be written into (--spill).
void requireWritableFolder(const std::string& folder);

}  // namespace kfield::io

#endif
