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
#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/MpiCheck.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/net/DevicePartition.hpp"
#include "kfield/net/NetworkPart.hpp"
#include "kfield/sim/Simulation.hpp"
#include "kfield/sim/impl/Halo.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
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
      : comm_(comm), partition_(partitionOf(network, comm, std::move(partition))) {
    if (program.edgePlanes > 0) Local::reverseEntries(program, network);  // refused as one process would
    part_ = NetworkPart::of(network, partition_.part(rank_));
    local_ = std::make_unique<Local>(std::move(program), part_.network, samples, space);
    Local& sim = *local_;
    if (!part_.ids.empty()) sim.net_.ids = impl::upload<Memory>(part_.ids, "kfield::network::ids");
    sim.active_ = part_.owned;
    impl::HaloLayout layout;
    layout.exports = static_cast<std::int64_t>(sim.program_.exports.size());
    layout.edgePlanes = sim.program_.edgePlanes;
    layout.edgeRow = sim.planes_.edgeRow;
    layout.keyed = sim.planes_.presencePrev.extent(0) > 0;
    halo_ = std::make_shared<impl::Halo<ExecSpace>>(part_, partition_, comm_, layout, samples, space);
    sim.exchange_ = halo_;
  }

  using Sensor = impl::SensorHandle<BasicDistributedSimulation>;
  Sensor sensor(const std::string& name) {
    local_->sensor(name);  // refuses a name the program does not read
    return Sensor(this, local_->program_.sensorIndex(name));
  }
  BasicDistributedSimulation& parameter(const std::string& name, const std::vector<double>& values) {
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

  DevicePartition partitionOf(const Network& network, MPI_Comm comm,
                              std::optional<DevicePartition> given) {
    int ranks = 0;
    impl::mpiCheck(kWho, MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
    impl::mpiCheck(kWho, MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    if (!given) return DevicePartition::blocks(network.devices(), ranks);
    if (given->parts() != ranks || given->devices() != network.devices()) {
      impl::invalidArgument(kWho, "the partition has " + std::to_string(given->parts()) + " parts of " +
                                      std::to_string(given->devices()) + " devices, for " +
                                      std::to_string(ranks) + " ranks and " +
                                      std::to_string(network.devices()) + " devices");
    }
    return *given;
  }
  void setSensor(std::int32_t index, std::int64_t device, std::int64_t sample, double value) {
    const SensorInfo& sensor = local_->program_.sensors[static_cast<std::size_t>(index)];
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "device", device, devices());
    impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "sample", sample, samples());
    impl::sensorValue(kWho, sensor, device, value);
    const std::int64_t i = part_.localOf(device);
    if (i >= 0) local_->setSensor(index, i, sample, value);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  DevicePartition partition_;
  NetworkPart part_;
  std::unique_ptr<Local> local_;
  std::shared_ptr<impl::Halo<ExecSpace>> halo_;
};

using DistributedSimulation = BasicDistributedSimulation<>;

template <class ExecSpace>
HostPlane BasicDistributedSimulation<ExecSpace>::output() const {
  const HostPlane all = local_->output();
  const std::int64_t local = part_.network.devices(), owned = part_.owned.size();
  const std::int64_t width = local_->program_.outputWidth, samples = this->samples();
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
HostPlane BasicDistributedSimulation<ExecSpace>::gatherOutput(int root) const {
  const HostPlane mine = output();
  const int parts = partition_.parts();
  const std::int64_t width = local_->program_.outputWidth, samples = this->samples();
  std::vector<int> counts(parts), at(parts);
  std::uint64_t total = 0;
  for (int r = 0; r < parts; ++r) {
    const std::uint64_t n = impl::product({std::uint64_t(width), std::uint64_t(partition_.part(r).size()),
                                           std::uint64_t(samples)});
    if (total + n > std::uint64_t(INT_MAX)) {
      impl::runtimeError(kWho, "gatherOutput: more than 2^31 - 1 values in one gather");
    }
    at[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(n);
    total += n;
  }
  std::vector<double> all(rank_ == root ? total : 0);
  impl::mpiCheck(kWho,
                 MPI_Gatherv(mine.data(), counts[rank_], MPI_DOUBLE, all.data(), counts.data(),
                             at.data(), MPI_DOUBLE, root, comm_),
                 "MPI_Gatherv");
  if (rank_ != root) return HostPlane();
  const std::int64_t n = devices();
  HostPlane result("kfield::distributed::gathered_output", width * n, samples);
  for (int r = 0; r < parts; ++r) {
    const IndexRange ids = partition_.part(r);
    const double* from = all.data() + at[r];  // (width x owned) x samples of rank r
    for (std::int64_t c = 0; c < width; ++c) {
      for (std::int64_t i = 0; i < ids.size(); ++i) {
        for (std::int64_t s = 0; s < samples; ++s) {
          result(c * n + ids.begin + i, s) = from[(c * ids.size() + i) * samples + s];
        }
      }
    }
  }
  return result;
}

}  // namespace kfield

#endif
#endif
