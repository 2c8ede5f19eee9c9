// A kfield built without HDF5 (KFIELD_ENABLE_HDF5=OFF): the file functions refuse by name.
#include "kfield/io/Checkpoint.hpp"
#include "kfield/io/Export.hpp"
#include "kfield/io/Inspect.hpp"
#include "kfield/io/NetworkFile.hpp"
#include "kfield/io/Restart.hpp"
#include "kfield/io/SampleStore.hpp"
#include "kfield/io/Spill.hpp"

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
void saveCheckpoint(const std::string& path, const LearnerState&, const OwnerPlacement&,
                    const CheckpointOptions&) {
  noHdf5("kfield::io::saveCheckpoint", path);
}
LearnerState loadCheckpoint(const std::string& path) { noHdf5("kfield::io::loadCheckpoint", path); }
TrainingRecord loadTrainingRecord(const std::string& path) {
  noHdf5("kfield::io::loadTrainingRecord", path);
}
std::string inspect(const std::string& path, bool) { noHdf5("kfield::io::inspect", path); }
Network readNetwork(const std::string& path) { noHdf5("kfield::io::readNetwork", path); }
std::int64_t readNetworkDevices(const std::string& path) {
  noHdf5("kfield::io::readNetworkDevices", path);
}
NetworkPart readNetworkPart(const std::string& path, IndexRange) {
  noHdf5("kfield::io::readNetworkPart", path);
}
SimulationCarry loadRestart(const std::string& path, const TracedProgram&, const Network&,
                            std::int64_t, const RunInputs&) {
  noHdf5("kfield::io::loadRestart", path);
}

void saveSamples(const std::string& path, const DataParallelSystem&) {
  noHdf5("kfield::io::saveSamples", path);
}
DataParallelSystem loadSamples(const std::string& path, DataParallelSystem, std::int64_t,
                               const OwnerPlacement&) {
  noHdf5("kfield::io::loadSamples", path);
}

std::shared_ptr<diff::CarryStore> spillStore(const std::string& folder) {
  noHdf5("kfield::io::spillStore", folder);
}

struct SimulationExport::Writer {};
SimulationExport::SimulationExport(const std::string& path, const Network&, const std::string&,
                                   std::int64_t, const std::string&, int, std::int64_t, Contents) {
  noHdf5("kfield::io::SimulationExport", path);
}
SimulationExport::~SimulationExport() = default;
void SimulationExport::append(std::int64_t, const HostPlane&, const Snapshot&) {}
std::int64_t SimulationExport::snapshots() const { return 0; }
void SimulationExport::commit(const SimulationCarry*) {}
void SimulationExport::finish() {}

}  // namespace kfield::io
