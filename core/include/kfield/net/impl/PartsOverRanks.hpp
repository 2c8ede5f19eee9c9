// The parts of a distributed network and the ranks that hold them: what every class that
// runs one part per rank checks first.
#ifndef KFIELD_NET_IMPL_PARTSOVERRANKS_HPP
#define KFIELD_NET_IMPL_PARTSOVERRANKS_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Mpi.hpp"
#include "kfield/net/DevicePartition.hpp"
#include "kfield/net/NetworkPart.hpp"

#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>

namespace kfield::impl {

// The partition of `devices` devices over the ranks of `comm`: `given`, or near-equal blocks.
// Throws std::invalid_argument when the partition's parts are not the ranks or its devices
// not the network's.
inline DevicePartition partitionOverRanks(const char* who, std::int64_t devices, MPI_Comm comm,
                                          std::optional<DevicePartition> given) {
  int ranks = 0;
  mpiCheck(who, MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  if (!given) return DevicePartition::blocks(devices, ranks);
  if (given->parts() != ranks || given->devices() != devices) {
    invalidArgument(who, "the partition has " + std::to_string(given->parts()) + " parts of " +
                             std::to_string(given->devices()) + " devices, for " +
                             std::to_string(ranks) + " ranks and " + std::to_string(devices) +
                             " devices");
  }
  return *given;
}

// Refuses, on every rank, a part that is not the one the partition gives its rank.
inline void requireOwnPart(const char* who, const NetworkPart& part,
                           const DevicePartition& partition, MPI_Comm comm) {
  int rank = 0;
  mpiCheck(who, MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const IndexRange given = partition.part(rank);
  std::string problem;
  if (part.ownedIds.begin != given.begin || part.ownedIds.end != given.end) {
    problem = "rank " + std::to_string(rank) + " holds devices [" +
              std::to_string(part.ownedIds.begin) + ", " + std::to_string(part.ownedIds.end) +
              "), but the partition gives it [" + std::to_string(given.begin) + ", " +
              std::to_string(given.end) + ")";
  }
  failOnEveryRank(who, problem, comm);
}

}  // namespace kfield::impl

#endif
#endif
