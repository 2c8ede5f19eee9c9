// A kfield built without HDF5 (KFIELD_ENABLE_HDF5=OFF): the file functions refuse by name.
#include "kfield/io/Checkpoint.hpp"
#include "kfield/io/Inspect.hpp"

#include <stdexcept>

namespace kfield::io {

namespace {
[[noreturn]] void noHdf5(const std::string& who, const std::string& path) {
  throw std::runtime_error(who + ": " + path +
                           ": this kfield was built without HDF5 (KFIELD_ENABLE_HDF5=OFF)");
}
}  // namespace

void saveCheckpoint(const std::string& path, const LearnerState&, const CheckpointOptions&) {
  noHdf5("kfield::io::saveCheckpoint", path);
}
LearnerState loadCheckpoint(const std::string& path) { noHdf5("kfield::io::loadCheckpoint", path); }
std::string inspect(const std::string& path, bool) { noHdf5("kfield::io::inspect", path); }

}  // namespace kfield::io
