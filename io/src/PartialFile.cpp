#include "kfield/io/PartialFile.hpp"

#include "kfield/io/FileError.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace kfield::io {
namespace {

constexpr const char* kWho = "kfield::io";

[[noreturn]] void refuse(const std::string& path, const std::string& what) {
  throw FileError(kWho, path, what);
}
[[noreturn]] void systemFailure(const std::string& path, const std::string& what) {
  refuse(path, what + " (" + std::strerror(errno) + ")");
}

std::string folderOf(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

const char* kindOf(mode_t mode) {
  return S_ISDIR(mode)                    ? "a folder"
         : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
         : S_ISFIFO(mode)                 ? "a FIFO"
         : S_ISSOCK(mode)                 ? "a socket"
                                          : "not a regular file";
}

// PATH, when it exists, is a regular file (a link is followed: what it names must be one).
void requireRegularOrAbsent(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    systemFailure(path, "cannot look at it");
  }
  if (!S_ISREG(st.st_mode)) {
    refuse(path, std::string("exists and is ") + kindOf(st.st_mode) +
                     ", not a regular file kfield may replace");
  }
}

void syncFolder(const std::string& path) {
  const int fd = ::open(folderOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) systemFailure(folderOf(path), "cannot open the folder to flush it to disk");
  const int synced = ::fsync(fd);
  ::close(fd);
  if (synced != 0 && errno != EINVAL)
    systemFailure(folderOf(path), "cannot flush the folder to disk");
}

bool exists(const std::string& path) { return ::access(path.c_str(), F_OK) == 0; }

// An exclusive lock of the open file description (not of the process: closing another
// descriptor of the same file, as HDF5 does, keeps it); released when `fd` is closed, also by
// a kill.
bool lockWhole(int fd) {
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
#ifdef F_OFD_SETLK
  return ::fcntl(fd, F_OFD_SETLK, &lock) == 0;
#else
  return ::fcntl(fd, F_SETLK, &lock) == 0;
#endif
}

// Refuses PATH while another process writes it (a published file, PartialFile::publish).
void requireNotBeingWritten(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return;  // absent, or not ours to read: the partial file's lock decides
  struct flock lock {};
  lock.l_type = F_WRLCK;
  lock.l_whence = SEEK_SET;
#ifdef F_OFD_GETLK
  const int asked = ::fcntl(fd, F_OFD_GETLK, &lock);
#else
  const int asked = ::fcntl(fd, F_GETLK, &lock);
#endif
  ::close(fd);
  if (asked == 0 && lock.l_type != F_UNLCK)
    refuse(path, "another process is writing it (it is locked)");
}

}  // namespace

namespace {
// `folder` as a place to write in; refusals name `named` (the folder, or a file to go in it).
void requireFolderFor(const std::string& folder, const std::string& named) {
  const std::string where = named == folder ? std::string() : "its folder " + folder + " ";
  struct stat st {};
  if (::stat(folder.c_str(), &st) != 0) {
    refuse(named, where.empty()
                      ? std::string(errno == ENOENT ? "no such folder" : std::strerror(errno))
                      : where + (errno == ENOENT ? "does not exist"
                                                 : std::string("cannot be looked at (") +
                                                       std::strerror(errno) + ")"));
  }
  if (!S_ISDIR(st.st_mode))
    refuse(named, where.empty() ? "is not a folder" : where + "is not a folder");
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    refuse(named, (where.empty() ? std::string("cannot write in this folder")
                                 : where + "cannot be written in") +
                      " (permission denied)");
  }
}
}  // namespace

void requireWritableFile(const std::string& path) {
  if (path.empty()) refuse(path, "an empty file name");
  requireRegularOrAbsent(path);
  requireFolderFor(folderOf(path), path);
}

void requireWritableFolder(const std::string& folder) { requireFolderFor(folder, folder); }

PartialFile::PartialFile(std::string path) : path_(std::move(path)) {
  requireWritableFile(path_);
  const std::string partial = partialPath();
  requireRegularOrAbsent(partial);
  requireNotBeingWritten(path_);
  // Opened without truncating: only the holder of the lock may change it. A writer that opened
  // the partial file just before its holder renamed it finds another file (or none) there, and
  // tries again on the new one.
  for (int attempt = 0; attempt < 8 && fd_ < 0; ++attempt) {
    const int fd = ::open(partial.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0) systemFailure(partial, "cannot create it");
    // A file system without locks (ENOLCK, EOPNOTSUPP) is written unlocked: one writer at a
    // time is then the user's to keep.
    if (!lockWhole(fd) && errno != ENOLCK && errno != EOPNOTSUPP && errno != EINVAL) {
      const int why = errno;
      ::close(fd);
      if (why == EAGAIN || why == EACCES) {
        refuse(partial, "another process is writing " + path_ + " (its partial file is locked)");
      }
      errno = why;
      systemFailure(partial, "cannot lock it");
    }
    struct stat mine {
    }, named{};
    if (::fstat(fd, &mine) == 0 && ::stat(partial.c_str(), &named) == 0 &&
        mine.st_ino == named.st_ino && mine.st_dev == named.st_dev) {
      fd_ = fd;
    } else {
      ::close(fd);
    }
  }
  if (fd_ < 0) refuse(partial, "kept being replaced by another writer");
  if (::ftruncate(fd_, 0) != 0) {
    const int why = errno;
    ::unlink(partial.c_str());
    ::close(fd_);
    fd_ = -1;
    errno = why;
    systemFailure(partial, "cannot empty it");
  }
}

PartialFile::~PartialFile() {
  if (fd_ < 0) return;
  if (!published_) ::unlink(partialPath().c_str());  // still ours: the lock is held until the close
  ::close(fd_);
}

void PartialFile::sync() const {
  if (::fsync(fd_) != 0)
    systemFailure(published_ ? path_ : partialPath(), "cannot flush it to disk");
}

void PartialFile::publish() {
  if (published_) return;
  sync();
  requireRegularOrAbsent(path_);
  requireNotBeingWritten(path_);
  if (std::rename(partialPath().c_str(), path_.c_str()) != 0) {
    systemFailure(path_, "cannot rename " + partialPath() + " over it");
  }
  syncFolder(path_);
  published_ = true;
}

void PartialFile::close() {
  if (fd_ < 0) return;
  sync();
  ::close(fd_);
  fd_ = -1;
}

void PartialFile::write(const void* data, std::size_t bytes) const {
  const auto* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) systemFailure(partialPath(), "cannot write it");
    p += n;
    bytes -= std::size_t(n);
  }
}

void PartialFile::commit(int keep) {
  if (keep < 1) refuse(path_, "keep = " + std::to_string(keep) + " (must be >= 1)");
  const std::string partial = partialPath();
  if (::fsync(fd_) != 0) systemFailure(partial, "cannot flush it to disk");
  requireRegularOrAbsent(path_);  // checked again: it may have changed while the body ran
  auto version = [&](int j) { return path_ + "." + std::to_string(j); };
  // Each version is replaced by a rename of a hard link to the one before: at every moment it
  // is the old or the new file, never missing.
  auto keepAs = [&](const std::string& from, int j) {
    const std::string link = version(j) + ".partial";
    ::unlink(link.c_str());
    if (::link(from.c_str(), link.c_str()) != 0 ||
        std::rename(link.c_str(), version(j).c_str()) != 0) {
      const int why = errno;
      ::unlink(link.c_str());
      errno = why;
      systemFailure(version(j), "cannot keep the previous version");
    }
  };
  if (keep >= 2 && exists(path_)) {
    for (int j = keep - 1; j >= 2; --j) {
      if (exists(version(j - 1))) keepAs(version(j - 1), j);
    }
    keepAs(path_, 1);
  }
  if (std::rename(partial.c_str(), path_.c_str()) != 0)
    systemFailure(path_, "cannot rename " + partial + " over it");
  syncFolder(path_);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace kfield::io
