// Gradients of an aggregate program over a network split among the ranks of an MPI
// communicator (DevicePartition.hpp): each rank records, checkpoints and reverses its own
// devices' rounds. Before each reversed round the ghosts' last exports come from their owners,
// as the round read them; before each gather the devices that read a rank's own (ghosts there)
// send what the gather reads of them (their values, adjoints, selections and what they received
// and sent), so every device sums its adjoint over its readers in one process's order. Losses
// and parameters' gradients are canonical sums over the whole network's devices, from each
// rank's partials merged in rank order. The result has the bits of Gradient over the whole
// network for any rank count and partition. Every rank makes the same calls, in the same order.
#ifndef KFIELD_DIFF_DISTRIBUTEDGRADIENT_HPP
#define KFIELD_DIFF_DISTRIBUTEDGRADIENT_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/Errors.hpp"
#include "kfield/IndexRange.hpp"
#include "kfield/Plane.hpp"
#include "kfield/diff/Gradient.hpp"
#include "kfield/diff/impl/PassParts.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Mpi.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/learn/OwnerPlacement.hpp"
#include "kfield/net/DevicePartition.hpp"
#include "kfield/net/NetworkPart.hpp"
#include "kfield/net/impl/PartsOverRanks.hpp"
#include "kfield/sim/Simulation.hpp"
#include "kfield/sim/impl/Halo.hpp"
#include "kfield/sum/Partials.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kfield::diff {

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class BasicDistributedGradient final : private impl::PassParts<ExecSpace> {
 public:
  using Memory = typename ExecSpace::memory_space;

  // Every rank passes the same program, network, samples and partition (near-equal blocks by
  // default). Throws std::invalid_argument as Gradient does, or when the partition's parts are
  // not the communicator's ranks.
  BasicDistributedGradient(TracedProgram program, const Network& network, std::int64_t samples,
                           MPI_Comm comm, std::optional<DevicePartition> partition = std::nullopt,
                           ExecSpace space = ExecSpace())
      : comm_(comm),
        partition_(
            kfield::impl::partitionOverRanks(kWho, network.devices(), comm, std::move(partition))) {
    kfield::impl::mpiCheck(kWho, MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    if (program.edgePlanes > 0) network.reverseEntries();  // an exchange's network: symmetric
    start(std::move(program), NetworkPart::of(network, partition_.part(rank_)), samples, space);
  }
  // From this rank's part (NetworkPart::grid): every rank its own part of one network.
  BasicDistributedGradient(TracedProgram program, NetworkPart part,
                           const DevicePartition& partition, std::int64_t samples, MPI_Comm comm,
                           ExecSpace space = ExecSpace())
      : comm_(comm),
        partition_(kfield::impl::partitionOverRanks(kWho, part.devices, comm, partition)) {
    kfield::impl::mpiCheck(kWho, MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    kfield::impl::requireOwnPart(kWho, part, partition_, comm_);
    start(std::move(program), std::move(part), samples, space);
  }

  // The reverse's passes call back into this object: it stays where it was made.
  BasicDistributedGradient(const BasicDistributedGradient&) = delete;
  BasicDistributedGradient& operator=(const BasicDistributedGradient&) = delete;

  using Sensor = kfield::impl::SensorHandle<BasicDistributedGradient>;
  // Sensors by the whole network's device ids; every rank sets every value (a rank keeps those
  // of the devices it holds).
  Sensor sensor(const std::string& name) { return Sensor(this, local_->sensorIndex(name)); }
  BasicDistributedGradient& parameter(const std::string& name, const std::vector<double>& values) {
    local_->parameter(name, values);
    return *this;
  }
  BasicDistributedGradient& differentiate(const std::string& sensor) {
    local_->differentiate(sensor);
    return *this;
  }
  BasicDistributedGradient& loss(Loss kind) {
    local_->loss(kind);
    return *this;
  }
  // The whole network's target, (output width x devices) x samples, on every rank.
  BasicDistributedGradient& target(const HostPlane& values);

  // As Gradient::run, with the same result on every rank, except sensorGradient: the rows of
  // this rank's devices (owned() in order).
  GradientResult run(const std::vector<std::int64_t>& stops, const GradientOptions& options = {});
  GradientResult run(std::int64_t rounds, const GradientOptions& options = {}) {
    return run(std::vector<std::int64_t>(static_cast<std::size_t>(samples()), rounds), options);
  }

  // What one sample costs this rank's passes (Gradient::bytesPerSample of its part): the unit
  // of GradientOptions::budgetBytes, which is each rank's.
  std::uint64_t bytesPerSample(std::int64_t longest, std::int64_t window = 0,
                               Tape tape = Tape::Carry) const {
    return local_->bytesPerSample(longest, window, tape);
  }
  std::int64_t devices() const { return part_.devices; }
  std::int64_t samples() const { return local_->samples(); }
  int rank() const { return rank_; }
  int ranks() const { return partition_.parts(); }
  const DevicePartition& partition() const { return partition_; }
  IndexRange owned() const { return part_.ownedIds; }
  const NetworkPart& part() const { return part_; }
  const ReversePlan& reversePlan() const { return local_->reversePlan(); }

 private:
  static constexpr const char* kWho = "kfield::diff::DistributedGradient";
  friend class kfield::impl::SensorHandle<BasicDistributedGradient>;
  using Local = BasicGradient<ExecSpace>;
  using Exchange = kfield::impl::PlaneExchange<Memory>;

  void start(TracedProgram program, NetworkPart part, std::int64_t samples, ExecSpace space) {
    part_ = std::move(part);
    space_ = space;
    std::string problem;  // refused on one rank (its memory), refused on all
    try {
      local_ = std::make_unique<Local>(std::move(program), part_.network, samples, space);
    } catch (const std::invalid_argument& e) {
      problem = reason(e) + " (rank " + std::to_string(rank_) + ")";
    }
    kfield::impl::failOnEveryRank(kWho, problem, comm_);
    // A reader on another rank is a ghost here only when the device it reads hears it back.
    kfield::impl::requireSymmetric(kWho, "a gradient over MPI ranks", part_, partition_, comm_);
    ids_ = kfield::impl::upload<Memory>(part_.ids, "kfield::network::ids");
    local_->parts_ = this;
  }
  void setSensor(std::int32_t index, std::int64_t device, std::int64_t sample, double value) {
    const SensorInfo& sensor = local_->program().sensors[static_cast<std::size_t>(index)];
    kfield::impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "device", device, devices());
    kfield::impl::requireIndex(kWho, "sensor '" + sensor.name + "'", "sample", sample, samples());
    kfield::impl::sensorValue(kWho, sensor, device, value);
    const std::int64_t i = part_.localOf(device);
    if (i >= 0) local_->setSensor(index, i, sample, value);
  }

  // impl::PassParts
  IndexRange computed() const override { return part_.owned; }
  Kokkos::View<const std::int64_t*, Memory> ids() const override { return ids_; }
  std::shared_ptr<Exchange> begin(const impl::ReaderLayout& layout, std::int64_t samples) override;
  void readers(const kfield::impl::HaloPlanes<Memory>& planes, std::int64_t live) override {
    readers_->start(planes, live);
    readers_->finish(planes, live);
  }
  std::vector<std::vector<double>> sums(const HostPlane& owned, std::int64_t blocks,
                                        bool oneSequence) override;
  std::int64_t agree(std::int64_t samplesPerPass) override {
    long long n = samplesPerPass;
    kfield::impl::mpiCheck(kWho, MPI_Allreduce(MPI_IN_PLACE, &n, 1, MPI_LONG_LONG, MPI_MIN, comm_),
                           "MPI_Allreduce");
    return static_cast<std::int64_t>(n);
  }

  void failTogether(const std::string& problem) override {
    kfield::impl::failOnEveryRank(
        kWho, problem.empty() ? problem : problem + " (rank " + std::to_string(rank_) + ")", comm_);
  }

  MPI_Comm comm_;
  int rank_ = 0;
  DevicePartition partition_;
  NetworkPart part_;
  ExecSpace space_;
  std::unique_ptr<Local> local_;
  Kokkos::View<const std::int64_t*, Memory> ids_;
  std::unique_ptr<kfield::impl::HaloTransfer<ExecSpace>> readers_;
};

using DistributedGradient = BasicDistributedGradient<>;

template <class ExecSpace>
BasicDistributedGradient<ExecSpace>& BasicDistributedGradient<ExecSpace>::target(
    const HostPlane& values) {
  const std::int64_t width = local_->program().outputWidth, n = devices(),
                     local = part_.network.devices();
  if (std::int64_t(values.extent(0)) != width * n || std::int64_t(values.extent(1)) != samples()) {
    kfield::impl::invalidArgument(
        kWho, "the target is " + std::to_string(values.extent(0)) + " x " +
                  std::to_string(values.extent(1)) +
                  ", expected (output width x devices) x samples = " + std::to_string(width * n) +
                  " x " + std::to_string(samples()));
  }
  HostPlane mine("kfield::diff::target_part", static_cast<std::size_t>(width * local),
                 values.extent(1));
  for (std::int64_t c = 0; c < width; ++c) {
    for (std::size_t i = 0; i < part_.ids.size(); ++i) {  // a part without devices: no ids
      for (std::size_t s = 0; s < values.extent(1); ++s)
        mine(c * local + i, s) = values(c * n + part_.ids[i], s);
    }
  }
  local_->target(mine);
  return *this;
}

template <class ExecSpace>
GradientResult BasicDistributedGradient<ExecSpace>::run(const std::vector<std::int64_t>& stops,
                                                        const GradientOptions& options) {
  GradientResult result = local_->run(stops, options);
  for (auto& [name, plane] : result.sensorGradient) {
    HostPlane mine("kfield::diff::sensor_gradient", static_cast<std::size_t>(part_.owned.size()),
                   plane.extent(1));
    for (std::int64_t i = 0; i < part_.owned.size(); ++i) {
      for (std::size_t s = 0; s < plane.extent(1); ++s)
        mine(i, s) = plane(part_.owned.begin + i, s);
    }
    plane = mine;
  }
  return result;
}

template <class ExecSpace>
std::shared_ptr<typename BasicDistributedGradient<ExecSpace>::Exchange>
BasicDistributedGradient<ExecSpace>::begin(const impl::ReaderLayout& layout, std::int64_t samples) {
  auto halo = std::make_shared<kfield::impl::Halo<ExecSpace>>(part_, partition_, comm_,
                                                              layout.round, samples, space_);
  using kfield::impl::HaloBlock;
  const std::int64_t edges = layout.round.edgePlanes;
  const std::vector<HaloBlock> blocks{
      HaloBlock{0, layout.values, 0, false},
      HaloBlock{1, layout.values, 0, false},
      HaloBlock{2, layout.selections, 0, false},
      HaloBlock{3, layout.round.keyed ? layout.round.exports : 0, 0, false},
      HaloBlock{4, edges, 0, true},
      HaloBlock{5, edges, 0, true}};
  readers_ = std::make_unique<kfield::impl::HaloTransfer<ExecSpace>>(halo->lists(), blocks, samples,
                                                                     comm_, space_, kWho);
  return halo;
}

template <class ExecSpace>
std::vector<std::vector<double>> BasicDistributedGradient<ExecSpace>::sums(const HostPlane& owned,
                                                                           std::int64_t blocks,
                                                                           bool oneSequence) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const std::int64_t count = part_.owned.size(), n = devices(),
                     width = std::int64_t(owned.extent(1));
  const OwnerPlacement ranks = OwnerPlacement::overRanks(comm_);
  if (blocks == 0) return {};
  if (!oneSequence) {  // one canonical sum per block and sample: vectors of blocks x samples per
                       // device
    Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> rows(
        "kfield::diff::owned_vectors", count, blocks * width);
    for (std::int64_t b = 0; b < blocks; ++b) {
      for (std::int64_t i = 0; i < count; ++i) {
        for (std::int64_t s = 0; s < width; ++s) rows(i, b * width + s) = owned(b * count + i, s);
      }
    }
    const std::vector<double> all = finishPartials(
        ranks.combine(canonicalPartialsOfVectors(Host(), rows, part_.ownedIds.begin, n)));
    std::vector<std::vector<double>> out(static_cast<std::size_t>(blocks));
    for (std::int64_t b = 0; b < blocks; ++b)
      out[b].assign(all.begin() + b * width, all.begin() + (b + 1) * width);
    return out;
  }
  // The blocks one after another: one sequence of blocks x devices, each rank's run in each block.
  std::optional<Partials<double>> merged;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const auto rows =
        Kokkos::subview(owned, std::make_pair(b * count, (b + 1) * count), Kokkos::ALL);
    Partials<double> block = ranks.combine(
        canonicalPartialsOfVectors(Host(), rows, b * n + part_.ownedIds.begin, blocks * n));
    merged = merged ? mergePartials(*merged, block) : block;
  }
  return {finishPartials(*merged)};
}

}  // namespace kfield::diff

#endif
#endif
