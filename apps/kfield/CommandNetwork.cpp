#include "CommandNetwork.hpp"

#include "Command.hpp"

#include <kfield/Config.hpp>
#include <kfield/Errors.hpp>
#include <kfield/io/NetworkFile.hpp>
#include <kfield/net/NetworkSpec.hpp>

#if KFIELD_ENABLE_MPI
#include <kfield/impl/Mpi.hpp>

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
    throw UserError("--" + what.substr(what.find(": ") + 2) + " (under mpirun -np " + std::to_string(ranks) + ")");
  }
}

}  // namespace

CommandNetwork commandNetwork(const std::string& spec, const std::string& partition, bool partitionGiven,
                              int rank, int ranks, bool whole) {
  CommandNetwork net;
  const NetworkSpec parsed(spec);
  if (ranks == 1 || !parsed.generated()) {  // read or built whole
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
  net.devices = parsed.devices();
  net.partition = partitionOf(partition, net.devices, ranks);
  const char* who = "kfield::cli::commandNetwork";
  std::string problem;  // refused on one rank (its part's memory), refused on all
  try {
    net.part = parsed.part(net.partition->part(rank));
    if (whole) net.whole = parsed.build();
  } catch (const std::invalid_argument& e) {
    problem = reason(e) + " (rank " + std::to_string(rank) + ")";
  }
  impl::failOnEveryRank(who, problem, MPI_COMM_WORLD);
  net.description = net.part->name;
  const lib::NetworkFacts mine = lib::NetworkFacts::ofRows(net.part->network, net.part->owned);
  long long degree = mine.largestDegree;
  double length = mine.longestLength;
  impl::mpiCheck(who, MPI_Allreduce(MPI_IN_PLACE, &degree, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD),
                 "MPI_Allreduce");
  impl::mpiCheck(who, MPI_Allreduce(MPI_IN_PLACE, &length, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD),
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
