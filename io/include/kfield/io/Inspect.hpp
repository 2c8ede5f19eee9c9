// What a kfield HDF5 file holds, for people (`kfield inspect FILE [--verify]`).
#ifndef KFIELD_IO_INSPECT_HPP
#define KFIELD_IO_INSPECT_HPP

#include "kfield/io/FileError.hpp"

#include <string>

namespace kfield::io {

// Its kind, format version and provenance, then every group with its attributes and every
// dataset with its type, shape and whether it is checksummed. With verify, every dataset is
// read whole (checksums checked) and the file is loaded as its kind is (a checkpoint's
// identities and shapes). Throws FileError naming the file and the first problem.
std::string inspect(const std::string& path, bool verify = false);

}  // namespace kfield::io

#endif
