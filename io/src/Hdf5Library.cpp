#include "kfield/io/Hdf5Library.hpp"

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_HDF5
#include <hdf5.h>
#endif

namespace kfield {

std::string hdf5LibraryVersion() {
#if KFIELD_ENABLE_HDF5
  unsigned major = 0, minor = 0, release = 0;
  if (H5get_libversion(&major, &minor, &release) < 0) return "unknown";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(release);
#else
  return "";
#endif
}

}  // namespace kfield
