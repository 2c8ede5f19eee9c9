// The network a command runs on: the whole network in one process; under mpirun each rank's
// part, built (grids, rggs) or read (edge lists, HDF5 networks) alone, with what the library's
// programs read of the whole network (its facts) agreed over the ranks.
#ifndef KFIELD_APPS_COMMANDNETWORK_HPP
#define KFIELD_APPS_COMMANDNETWORK_HPP

#include <kfield/field/Programs.hpp>
#include <kfield/net/DevicePartition.hpp>
#include <kfield/net/Network.hpp>
#include <kfield/net/NetworkPart.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace kfield::cli {

struct CommandNetwork {
  std::int64_t devices = 0;
  std::string description;                   // the whole network's
  lib::NetworkFacts facts;                   // the whole network's
  std::optional<Network> whole;              // one process, or where asked for
  std::optional<NetworkPart> part;           // this rank's, under mpirun
  std::optional<DevicePartition> partition;  // under mpirun, or when --partition is given
};

// The network of --network `spec` over `ranks` ranks split by --partition `partition` (checked
// when given or when ranks > 1). Under mpirun the whole network is built too when `whole` (the
// file an --out writes or a --resume reads holds it).
CommandNetwork commandNetwork(const std::string& spec, const std::string& partition,
                              bool partitionGiven, int rank, int ranks, bool whole);

}  // namespace kfield::cli

#endif
