// The reverse's window checkpoints in an HDF5 file (kind "window-spill") instead of memory:
//   options.spill = io::spillStore("/scratch/me");   // a file there per pass, deleted after
#ifndef KFIELD_IO_SPILL_HPP
#define KFIELD_IO_SPILL_HPP

#include "kfield/diff/CarryStore.hpp"

#include <memory>
#include <string>

namespace kfield::io {

// Files are named kfield-spill-<pid>-<n>.h5 in `folder`; a failure to create, write or read
// one throws FileError naming it.
std::shared_ptr<diff::CarryStore> spillStore(const std::string& folder);

}  // namespace kfield::io

#endif
