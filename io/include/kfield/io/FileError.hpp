// How kfield refuses a file: one message naming the file and the problem, "FILE: what" after
// the usual "kfield::io::function: ". A file that cannot be read as asked (missing, damaged,
// of another kind or another system) is bad input, so FileError is an invalid_argument; the
// command-line program reports it in one line with exit code 2.
#ifndef KFIELD_IO_FILEERROR_HPP
#define KFIELD_IO_FILEERROR_HPP

#include <stdexcept>
#include <string>

namespace kfield::io {

class FileError : public std::invalid_argument {
 public:
  FileError(const std::string& who, std::string file, const std::string& what)
      : std::invalid_argument(who + ": " + file + ": " + what), file_(std::move(file)) {}
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

}  // namespace kfield::io

#endif
