// A simulation over the ranks of an MPI communicator: each rank owns a run of the network's
// devices (DevicePartition.hpp), runs their rounds on its own execution space, and before each
// round receives, from their owners, the last exports of the ghosts its devices hear (Halo.hpp).
// Every fold reads the same neighbors in the same order as one process does, so after any
// rounds the fields are the bits of Simulation over the whole network, for any rank count and
// partition; what ranks decide together (which samples are stable, which device overflowed a
// spawn first) is agreed exactly. Every rank makes the same calls, in the same order.
#ifndef KFIELD_SIM_DISTRIBUTEDSIMULATION_HPP
#define KFIELD_SIM_DISTRIBUTEDSIMULATION_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/Errors.hpp"
#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Mpi.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/learn/OwnerPlacement.hpp"
#include "kfield/net/DevicePartition.hpp"
#include "kfield/net/NetworkPart.hpp"
#include "kfield/net/impl/PartsOverRanks.hpp"
#include "kfield/sim/Simulation.hpp"
#include "kfield/sim/impl/Halo.hpp"
#include "kfield/sim/impl/Inputs.hpp"
#include "kfield/sim/impl/SimulationAccess.hpp"
#include "kfield/sum/Partials.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kfield {

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class BasicDistributedSimulation {
 public:
  using Memory = typename ExecSpace::memory_space;

  // Every rank passes the same program, network, samples and partition (blocks of near-equal
  // size by default, one per rank). Throws std::invalid_argument when the partition's parts
  // are not the communicator's ranks, or what Simulation refuses.
  BasicDistributedSimulation(TracedProgram program, const Network& network, std::int64_t samples,
                             MPI_Comm comm, std::optional<DevicePartition> partition = std::nullopt,
                             ExecSpace space = ExecSpace())
      : comm_(comm),
        partition_(impl::partitionOverRanks(kWho, network.devices(), comm, std::move(partition))) {
    impl::mpiCheck(kWho, MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    impl::SimulationAccess::requireExchangeNetwork<ExecSpace>(program,
                                                              network);  // as one process would
    start(std::move(program), NetworkPart::of(network, partition_.part(rank_)), samples, space);
  }
  // From this rank's part, built without the whole network (NetworkPart::grid): every rank
  // passes its own part of the same network and partition.
  BasicDistributedSimulation(TracedProgram program, NetworkPart part,
                             const DevicePartition& partition, std::int64_t samples, MPI_Comm comm,
                             ExecSpace space = ExecSpace())
      : comm_(comm), partition_(impl::partitionOverRanks(kWho, part.devices, comm, partition)) {
    impl::mpiCheck(kWho, MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    impl::requireOwnPart(kWho, part, partition_, comm_);
    start(std::move(program), std::move(part), samples, space);
  }

  using Sensor = impl::SensorHandle<BasicDistributedSimulation>;
  Sensor sensor(const std::string& name) {
    local_->sensor(name);  // refuses a name the program does not read
    return Sensor(this, local_->program().sensorIndex(name));
  }
  BasicDistributedSimulation& parameter(const std::string& name,
                                        const std::vector<double>& values) {
    local_->parameter(name, values);
    return *this;
  }

  void run(std::int64_t rounds) { local_->run(rounds); }
  void run(const std::vector<std::int64_t>& roundsPerSample) { local_->run(roundsPerSample); }
  std::vector<std::int64_t> runUntilStable(std::int64_t maxRounds) {
    return local_->runUntilStable(maxRounds);
  }

  // The output of this rank's devices: component c of its i-th device in row c * owned + i.
  HostPlane output() const;
  // The whole network's output, as Simulation::output() gives it, on rank `root`; empty on
  // the others.
  HostPlane gatherOutput(int root = 0) const;

  // Per sample, the canonical sum over every device of output component `component`
  // (canonicalSumOfVectors over the whole output's rows): each rank sums its run of devices
  // into canonical partials, merged in rank order, so every rank gets the bits of one process
  // for any rank count and partition: a loss or a count over the devices.
  std::vector<double> sumOverDevices(std::int64_t component = 0) const;

  // What the next round reads (Simulation::carry) of the whole network, gathered on rank
  // `root`: restore(carry) into a distributed simulation of any rank count and partition, or
  // into a Simulation, continues bit for bit. The other ranks get a carry without planes.
  SimulationCarry carry(int root = 0) const;
  // Every rank passes the whole network's carry (as io::loadRestart reads it on each).
  // Throws std::invalid_argument when a plane's shape is not this network's and program's.
  void restore(const SimulationCarry& carry);

  std::int64_t devices() const { return part_.devices; }
  std::int64_t samples() const { return local_->samples(); }
  std::vector<std::int64_t> rounds() const { return local_->rounds(); }
  const TracedProgram& program() const { return local_->program(); }
  int rank() const { return rank_; }
  int ranks() const { return partition_.parts(); }
  const DevicePartition& partition() const { return partition_; }
  // This rank's devices (global ids), and what it holds of the network.
  IndexRange owned() const { return part_.ownedIds; }
  const NetworkPart& part() const { return part_; }
  // The bytes this rank sends to others in one round of all its samples, and to how many ranks.
  std::uint64_t haloBytesPerRound() const { return halo_->bytesPerRound(samples()); }
  std::int64_t haloPeers() const { return halo_->peers(); }

 private:
  using Local = BasicSimulation<ExecSpace>;
  static constexpr const char* kWho = "kfield::DistributedSimulation";
  friend class impl::SensorHandle<BasicDistributedSimulation>;

  void start(TracedProgram program, NetworkPart part, std::int64_t samples, ExecSpace space) {
    part_ = std::move(part);
    // Where this rank's rows start among the whole network's entries: they follow the rows of
    // the ranks before it.
    const auto& offsets = part_.network.offsets();
    long long mine =
        part_.owned.size() > 0 ? offsets[part_.owned.end] - offsets[part_.owned.begin] : 0;
    long long before = 0, all = 0;
    impl::mpiCheck(kWho, MPI_Exscan(&mine, &before, 1, MPI_LONG_LONG, MPI_SUM, comm_),
                   "MPI_Exscan");
    impl::mpiCheck(kWho, MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, MPI_SUM, comm_),
                   "MPI_Allreduce");
    firstEntry_ = rank_ == 0 ? 0 : before;
    entries_ = all;
    std::string problem;  // refused on one rank (its memory), refused on all
    try {
      local_ = std::make_unique<Local>(std::move(program), part_.network, samples,
                                       SimulationOptions{}, space);
    } catch (const std::invalid_argument& e) {
      problem = reason(e) + " (rank " + std::to_string(rank_) + ")";
    }
    impl::failOnEveryRank(kWho, problem, comm_);
    Local& sim = *local_;
    halo_ = std::make_shared<impl::Halo<ExecSpace>>(
        part_, partition_, comm_, impl::SimulationAccess::haloLayout(sim), samples, space);
    impl::SimulationAccess::attachPart(
        sim,
        part_.ids.empty() ? Kokkos::View<const std::int64_t*, Memory>()
                          : impl::upload<Memory>(part_.ids, "kfield::network::ids"),
        part_.owned, halo_);
  }
  // A carry plane's rows: `blocks` blocks of a row per device, then `edgePlanes` blocks of a
  // row per network entry. For each row this rank owns: its local row and its whole-network row.
  struct RowMap {
    std::vector<std::int64_t> local, whole;
  };
  RowMap ownedRows(std::int64_t blocks, std::int64_t edgePlanes) const;
  // Each plane of a carry, with its blocks: states, state keys, exports, presence keys, output.
  template <class F>
  void forEachPlane(F&& f) const {
    const TracedProgram& p = local_->program();
    const auto states = static_cast<std::int64_t>(p.states.size());
    const auto exports = static_cast<std::int64_t>(p.exports.size());
    const auto& planes = impl::SimulationAccess::planes(*local_);
    const bool keyedStates = planes.stateKeys.extent(0) > 0;
    const bool keyedExports = planes.presencePrev.extent(0) > 0;
    f(&SimulationCarry::states, "states", states, std::int64_t(0));
    f(&SimulationCarry::stateKeys, "state keys", keyedStates ? states : 0, std::int64_t(0));
    f(&SimulationCarry::exports, "exports", exports, std::int64_t(p.edgePlanes));
    f(&SimulationCarry::presence, "presence keys", keyedExports ? exports : 0, std::int64_t(0));
    f(&SimulationCarry::output, "output", std::int64_t(p.outputWidth), std::int64_t(0));
  }
  void setSensor(std::int32_t index, std::int64_t device, std::int64_t sample, double value) {
    const SensorInfo& sensor = local_->program().sensors[static_cast<std::size_t>(index)];
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "device", device, devices());
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "sample", sample, samples());
    impl::sensorValue(kWho, sensor, device, value);
    const std::int64_t i = part_.localOf(device);
    if (i >= 0) impl::SimulationAccess::setSensor(*local_, index, i, sample, value);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  DevicePartition partition_;
  std::int64_t firstEntry_ = 0;  // the whole network's entry of this rank's first row
  std::int64_t entries_ = 0;     // the whole network's entries
  NetworkPart part_;
  std::unique_ptr<Local> local_;
  std::shared_ptr<impl::Halo<ExecSpace>> halo_;
};

using DistributedSimulation = BasicDistributedSimulation<>;

template <class ExecSpace>
typename BasicDistributedSimulation<ExecSpace>::RowMap
BasicDistributedSimulation<ExecSpace>::ownedRows(std::int64_t blocks,
                                                 std::int64_t edgePlanes) const {
  RowMap map;
  const std::int64_t local = part_.network.devices(), n = devices();
  const std::int64_t localEntries = part_.network.entries(), entries = entries_;
  for (std::int64_t b = 0; b < blocks; ++b) {
    for (std::int64_t i = part_.owned.begin; i < part_.owned.end; ++i) {
      map.local.push_back(b * local + i);
      map.whole.push_back(b * n + part_.ids[i]);
    }
  }
  const auto& localOffsets = part_.network.offsets();
  for (std::int64_t e = 0; e < edgePlanes && part_.owned.size() > 0; ++e) {
    const std::int64_t first = localOffsets[part_.owned.begin];  // owned rows: the same, in order
    for (std::int64_t k = first; k < localOffsets[part_.owned.end]; ++k) {
      map.local.push_back(blocks * local + e * localEntries + k);
      map.whole.push_back(blocks * n + e * entries + firstEntry_ + (k - first));
    }
  }
  return map;
}

template <class ExecSpace>
SimulationCarry BasicDistributedSimulation<ExecSpace>::carry(int root) const {
  const SimulationCarry mine = local_->carry();
  SimulationCarry whole;
  whole.rounds = mine.rounds;
  const std::int64_t samples = this->samples();
  forEachPlane([&](HostPlane SimulationCarry::*plane, const char*, std::int64_t blocks,
                   std::int64_t edgePlanes) {
    const RowMap map = ownedRows(blocks, edgePlanes);
    std::vector<double> values;
    values.reserve(map.local.size() * static_cast<std::size_t>(samples));
    for (std::int64_t r : map.local) {
      for (std::int64_t s = 0; s < samples; ++s) values.push_back((mine.*plane)(r, s));
    }
    const std::vector<std::int64_t> rows = impl::gatherToRoot(kWho, map.whole, root, comm_);
    const std::vector<double> all = impl::gatherToRoot(kWho, values, root, comm_);
    if (rank_ != root) return;
    const std::int64_t total = blocks * devices() + edgePlanes * entries_;
    HostPlane out(std::string("kfield::carry::whole"), total, samples);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::int64_t s = 0; s < samples; ++s)
        out(rows[i], s) = all[i * std::size_t(samples) + std::size_t(s)];
    }
    whole.*plane = out;
  });
  return whole;
}

template <class ExecSpace>
void BasicDistributedSimulation<ExecSpace>::restore(const SimulationCarry& carry) {
  SimulationCarry mine = carry;
  const std::int64_t samples = this->samples();
  const std::int64_t local = part_.network.devices(), n = devices();
  forEachPlane([&](HostPlane SimulationCarry::*plane, const char* what, std::int64_t blocks,
                   std::int64_t edgePlanes) {
    const HostPlane& from = carry.*plane;
    const std::int64_t rows = blocks * n + edgePlanes * entries_;
    if (std::int64_t(from.extent(0)) != rows || std::int64_t(from.extent(1)) != samples) {
      impl::invalidArgument(kWho, std::string("restore: the carry's ") + what + " are " +
                                      std::to_string(from.extent(0)) + " x " +
                                      std::to_string(from.extent(1)) + ", this simulation's " +
                                      std::to_string(rows) + " x " + std::to_string(samples));
    }
    HostPlane to(std::string("kfield::carry::part"),
                 blocks * local + edgePlanes * part_.network.entries(), samples);
    for (std::int64_t b = 0; b < blocks; ++b) {  // every local device, ghosts too
      for (std::int64_t i = 0; i < std::int64_t(part_.ids.size()); ++i) {
        for (std::int64_t s = 0; s < samples; ++s)
          to(b * local + i, s) = from(b * n + part_.ids[i], s);
      }
    }
    // The owned rows' messages (the ghosts' come with the halo): the map's rows after the devices'.
    const RowMap map = ownedRows(blocks, edgePlanes);
    for (std::size_t i = std::size_t(blocks * part_.owned.size()); i < map.local.size(); ++i) {
      for (std::int64_t s = 0; s < samples; ++s) to(map.local[i], s) = from(map.whole[i], s);
    }
    mine.*plane = to;
  });
  local_->restore(mine);
}

template <class ExecSpace>
HostPlane BasicDistributedSimulation<ExecSpace>::output() const {
  const HostPlane all = local_->output();
  const std::int64_t local = part_.network.devices(), owned = part_.owned.size();
  const std::int64_t width = local_->program().outputWidth, samples = this->samples();
  HostPlane result("kfield::distributed::output", width * owned, samples);
  for (std::int64_t c = 0; c < width; ++c) {
    for (std::int64_t i = 0; i < owned; ++i) {
      for (std::int64_t s = 0; s < samples; ++s) {
        result(c * owned + i, s) = all(c * local + part_.owned.begin + i, s);
      }
    }
  }
  return result;
}

template <class ExecSpace>
std::vector<double> BasicDistributedSimulation<ExecSpace>::sumOverDevices(
    std::int64_t component) const {
  const std::int64_t width = local_->program().outputWidth;
  impl::requireIndex(kWho, "sumOverDevices", "component", component, width);
  const HostPlane mine = output();
  const std::int64_t owned = part_.owned.size();
  const auto rows = Kokkos::subview(
      mine, std::make_pair(component * owned, (component + 1) * owned), Kokkos::ALL);
  Partials<double> partials = canonicalPartialsOfVectors(Kokkos::DefaultHostExecutionSpace(), rows,
                                                         part_.ownedIds.begin, devices());
  return finishPartials(OwnerPlacement::overRanks(comm_).combine(std::move(partials)));
}

template <class ExecSpace>
HostPlane BasicDistributedSimulation<ExecSpace>::gatherOutput(int root) const {
  const HostPlane mine = output();
  const std::vector<double> all = impl::gatherToRoot(
      kWho, std::vector<double>(mine.data(), mine.data() + mine.size()), root, comm_);
  if (rank_ != root) return HostPlane();
  const std::int64_t width = local_->program().outputWidth, samples = this->samples(),
                     n = devices();
  HostPlane result("kfield::distributed::gathered_output", width * n, samples);
  const double* from = all.data();  // rank by rank: (width x owned) x samples
  for (int r = 0; r < partition_.parts(); ++r) {
    const IndexRange ids = partition_.part(r);
    for (std::int64_t c = 0; c < width; ++c) {
      for (std::int64_t i = 0; i < ids.size(); ++i) {
        for (std::int64_t s = 0; s < samples; ++s) result(c * n + ids.begin + i, s) = *from++;
      }
    }
  }
  return result;
}

}  // namespace kfield

#endif
#endif
