#include "CommandNetwork.hpp"

#include "Command.hpp"

#include <kfield/Config.hpp>
#include <kfield/Errors.hpp>
#include <kfield/io/NetworkFile.hpp>
#include <kfield/net/NetworkSpec.hpp>

#if KFIELD_ENABLE_MPI
#include <kfield/rt/Mpi.hpp>

#include <mpi.h>
#endif

#include <stdexcept>

namespace kfield::cli {
namespace {

DevicePartition partitionOf(const std::string& spec, std::int64_t devices, int ranks) {
  try {
    return DevicePartition::fromSpec(spec, devices, ranks);
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();  // "kfield::DevicePartition: partition '...': ..."
    throw UserError("--" + what.substr(what.find(": ") + 2) + " (under mpirun -np " +
                    std::to_string(ranks) + ")");
  }
}

}  // namespace

CommandNetwork commandNetwork(const std::string& spec, const std::string& partition,
                              bool partitionGiven, int rank, int ranks, bool whole) {
  CommandNetwork net;
  const NetworkSpec parsed(spec);
  if (ranks == 1) {  // read or built whole
    net.whole = io::networkFromSpec(spec);
    net.devices = net.whole->devices();
    net.description = net.whole->description();
    net.facts = *net.whole;
    if (partitionGiven || ranks > 1) net.partition = partitionOf(partition, net.devices, ranks);
    if (ranks > 1) net.part = NetworkPart::of(*net.whole, net.partition->part(rank));
    if (ranks > 1 && !whole) net.whole.reset();
    return net;
  }
#if KFIELD_ENABLE_MPI
  const char* who = "kfield::cli::commandNetwork";
  // Refused on one rank (a file it cannot read, its part's memory): refused on all.
  const auto onEveryRank = [&](auto&& f) {
    std::string problem;
    try {
      f();
    } catch (const std::invalid_argument& e) {
      problem = reason(e) + " (rank " + std::to_string(rank) + ")";
    }
    kfield::failOnEveryRank(who, problem, MPI_COMM_WORLD);
  };
  const bool hdf5 = io::specNamesHdf5File(spec);  // kfield's own files: rows read by parts
  const std::string file = hdf5 ? spec.substr(spec.find(':') + 1) : std::string();
  onEveryRank([&] { net.devices = hdf5 ? io::readNetworkDevices(file) : parsed.devices(); });
  net.partition = partitionOf(partition, net.devices, ranks);
  onEveryRank([&] {
    const IndexRange owned = net.partition->part(rank);
    net.part = hdf5 ? io::readNetworkPart(file, owned) : parsed.part(owned);
    if (whole) net.whole = hdf5 ? io::readNetwork(file) : parsed.build();
  });
  const NetworkPart& part = *net.part;
  const auto sumOverRanks = [&](long long mine) {
    kfield::mpiCheck(who,
                     MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD),
                     "MPI_Allreduce");
    return std::int64_t(mine);
  };
  net.description = part.name;
  if (parsed.edgeList() &&
      !hdf5) {  // the whole's edges: each counted by one owned row (an arc by its head's)
    long long edges = 0;
    const auto& offsets = part.network.offsets();
    const auto& neighbors = part.network.neighbors();
    for (std::int64_t i = part.owned.begin; i < part.owned.end; ++i) {
      for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
        edges += parsed.directed() ? neighbors[k] != i : neighbors[k] > i;
      }
    }
    net.description = parsed.edgeListDescription(net.devices, sumOverRanks(edges));
  }
  const lib::NetworkFacts mine = lib::NetworkFacts::ofRows(part.network, part.owned);
  long long degree = mine.largestDegree;
  double length = mine.longestLength;
  kfield::mpiCheck(who,
                   MPI_Allreduce(MPI_IN_PLACE, &degree, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD),
                   "MPI_Allreduce");
  kfield::mpiCheck(who,
                   MPI_Allreduce(MPI_IN_PLACE, &length, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
                   "MPI_Allreduce");
  net.facts.largestDegree = degree;
  net.facts.longestLength = length;
  return net;
#else
  (void)rank, (void)whole;
  throw std::logic_error("several ranks without MPI");
#endif
}

}  // namespace kfield::cli
