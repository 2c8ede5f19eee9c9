// The halo of one part of a distributed network (NetworkPart.hpp): each round, the rows of the
// last round's exports that other parts' devices hear are sent to them, and the ghosts' rows
// arrive from their owners, by non-blocking point-to-point messages between the parts that
// share edges, while the devices that hear no ghost compute. Rows travel in a fixed order (export
// planes, then exchanges' messages, then presence keys; devices and entries ascending), so a part
// receives exactly what its owner wrote.
#ifndef KFIELD_SIM_IMPL_HALO_HPP
#define KFIELD_SIM_IMPL_HALO_HPP

#include "kfield/Config.hpp"

#if KFIELD_ENABLE_MPI
#include "kfield/Plane.hpp"
#include "kfield/backends/MemoryLimit.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Mpi.hpp"
#include "kfield/impl/Sizes.hpp"
#include "kfield/impl/Upload.hpp"
#include "kfield/net/DevicePartition.hpp"
#include "kfield/net/NetworkPart.hpp"
#include "kfield/sim/impl/PlaneExchange.hpp"

#include <mpi.h>
#include <Kokkos_Core.hpp>

#include <climits>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kfield::impl {

// Who one part exchanges with: per peer rank, the owned devices it sends (those the peer's
// devices hear) and the ghosts it receives from the peer, and for exchanges' messages their
// network entries (a sent device's entries for the peer's devices; a ghost's entries but its
// own), all ascending.
struct HaloLists {
  std::vector<int> peers;
  std::vector<std::vector<std::int64_t>> sendDevices, recvDevices, sendEntries, recvEntries;
  std::int64_t local = 0, entries = 0;  // the part's devices and network entries
  IndexRange interior;                  // the longest run of owned devices that hear no ghost
};

// Refuses, on every rank, a network in which a device hears one that does not hear it back,
// naming the pair ("`what` needs a symmetric network: device 5 hears device 3, but 3 does not
// hear 5"): each rank asks the owners of the ghosts its devices hear.
void requireSymmetric(const char* who, const std::string& what, const NetworkPart& part,
                      const DevicePartition& partition, MPI_Comm comm);

// `entries`: list the messages' entries too (a program with exchanges; the network must then
// be symmetric). Collective over `comm`.
HaloLists haloLists(const NetworkPart& part, const DevicePartition& partition, MPI_Comm comm,
                    bool entries);

// Rows of plane `plane` that travel: `count` blocks of a row per device (row + c * devices +
// d) or of a row per network entry (row + c * entries + k).
struct HaloBlock {
  int plane = 0;
  std::int64_t count = 0, row = 0;
  bool perEntry = false;
};

// The rows a part sends and receives, peer after peer, blocks in order, each as
// row * kHaloPlanes + plane; sendAt / recvAt: each peer's first, then the end.
struct HaloRows {
  std::vector<std::int64_t> sendAt, recvAt, send, recv;
};
HaloRows haloRows(const HaloLists& lists, const std::vector<HaloBlock>& blocks);

// Moves the rows of `blocks` from their owners' planes into the ghosts' rows of the same
// planes elsewhere, by MPI_Isend / MPI_Irecv between peers: start, then finish.
template <class ExecSpace>
class HaloTransfer {
 public:
  using Memory = typename ExecSpace::memory_space;

  HaloTransfer(const HaloLists& lists, const std::vector<HaloBlock>& blocks, std::int64_t samples,
               MPI_Comm comm, ExecSpace space, const char* who)
      : who_(who), comm_(comm), space_(space), peers_(lists.peers) {
    rows_ = haloRows(lists, blocks);
    const auto values = [&](std::size_t rows) {
      return impl::product({std::uint64_t(rows), std::uint64_t(samples)});
    };
    impl::requireMemory(who, "the halo's buffers",
                        impl::product({values(rows_.send.size() + rows_.recv.size()), 8}),
                        memoryLimit<Memory>().bytes, memoryLimit<Memory>().where);
    send_ = impl::upload<Memory>(rows_.send, "kfield::halo::send_rows");
    recv_ = impl::upload<Memory>(rows_.recv, "kfield::halo::recv_rows");
    sendValues_ = Kokkos::View<double*, Memory>(
        "kfield::halo::send", static_cast<std::size_t>(values(rows_.send.size())));
    recvValues_ = Kokkos::View<double*, Memory>(
        "kfield::halo::recv", static_cast<std::size_t>(values(rows_.recv.size())));
    sendHost_ = Kokkos::create_mirror_view(sendValues_);
    recvHost_ = Kokkos::create_mirror_view(recvValues_);
  }

  // Bytes this part sends in one transfer of `live` samples.
  std::uint64_t bytes(std::int64_t live) const {
    return impl::product({std::uint64_t(rows_.send.size()), std::uint64_t(live), sizeof(double)});
  }
  std::int64_t peers() const { return static_cast<std::int64_t>(peers_.size()); }

  void start(const HaloPlanes<Memory>& planes, std::int64_t live) {
    if (peers_.empty() || live == 0) return;
    move(space_, send_, sendValues_, planes, live, true);
    if (sendHost_.data() != sendValues_.data()) Kokkos::deep_copy(space_, sendHost_, sendValues_);
    space_.fence();
    requests_.clear();
    for (std::size_t i = 0; i < peers_.size(); ++i) {
      post(recvHost_.data(), rows_.recvAt[i], rows_.recvAt[i + 1], live, peers_[i], false);
    }
    for (std::size_t i = 0; i < peers_.size(); ++i) {
      post(sendHost_.data(), rows_.sendAt[i], rows_.sendAt[i + 1], live, peers_[i], true);
    }
  }

  void finish(const HaloPlanes<Memory>& planes, std::int64_t live) {
    if (peers_.empty() || live == 0) return;
    mpiCheck(who_,
             MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
             "MPI_Waitall");
    if (recvHost_.data() != recvValues_.data()) Kokkos::deep_copy(space_, recvValues_, recvHost_);
    move(space_, recv_, recvValues_, planes, live, false);
  }

  // Between the planes and a buffer (row i of `rows`, sample s at i * live + s): out of the
  // planes (pack) or into them. Public: nvcc refuses device lambdas in private members.
  static void move(const ExecSpace& space, const Kokkos::View<std::int64_t*, Memory>& rows,
                   const Kokkos::View<double*, Memory>& values, const HaloPlanes<Memory>& planes,
                   std::int64_t live, bool pack) {
    Kokkos::parallel_for(
        pack ? "kfield::halo::pack" : "kfield::halo::unpack",
        Kokkos::RangePolicy<ExecSpace>(space, 0, std::int64_t(rows.extent(0)) * live),
        KOKKOS_LAMBDA(std::int64_t t) {
          const std::int64_t r = rows(t / live), s = t % live;
          double& cell = planes[static_cast<int>(r % kHaloPlanes)](r / kHaloPlanes, s);
          if (pack) {
            values(t) = cell;
          } else {
            cell = values(t);
          }
        });
  }

 private:
  void post(double* values, std::int64_t begin, std::int64_t end, std::int64_t live, int peer,
            bool sending) {
    if (end == begin) return;
    const std::uint64_t count = impl::product({std::uint64_t(end - begin), std::uint64_t(live)});
    if (count > std::uint64_t(INT_MAX)) {
      impl::runtimeError(who_, "a halo message of " + std::to_string(count) +
                                   " values is more than one MPI message holds (2^31 - 1)");
    }
    MPI_Request request;
    double* at = values + begin * live;
    const int n = static_cast<int>(count);
    mpiCheck(who_,
             sending ? MPI_Isend(at, n, MPI_DOUBLE, peer, kTag, comm_, &request)
                     : MPI_Irecv(at, n, MPI_DOUBLE, peer, kTag, comm_, &request),
             sending ? "MPI_Isend" : "MPI_Irecv");
    requests_.push_back(request);
  }

  static constexpr int kTag = 7411;
  const char* who_;
  MPI_Comm comm_;
  ExecSpace space_;
  std::vector<int> peers_;
  HaloRows rows_;
  std::vector<MPI_Request> requests_;
  Kokkos::View<std::int64_t*, Memory> send_, recv_;
  Kokkos::View<double*, Memory> sendValues_, recvValues_;
  typename Kokkos::View<double*, Memory>::HostMirror sendHost_, recvHost_;
};

// The halo of a distributed simulation's rounds: the last round's exports, messages and
// presence keys (planes 0: exports, 1: presence keys).
template <class ExecSpace>
class Halo final : public PlaneExchange<typename ExecSpace::memory_space> {
 public:
  using Memory = typename ExecSpace::memory_space;
  static constexpr const char* kWho = "kfield::DistributedSimulation";

  Halo(const NetworkPart& part, const DevicePartition& partition, MPI_Comm comm,
       const HaloLayout& layout, std::int64_t samples, ExecSpace space)
      : comm_(comm),
        ids_(part.ids),
        lists_(haloLists(part, partition, comm, layout.edgePlanes > 0)),
        transfer_(lists_, blocks(layout), samples, comm, space, kWho) {}

  // Bytes this part sends in one round of `live` samples.
  std::uint64_t bytesPerRound(std::int64_t live) const { return transfer_.bytes(live); }
  std::int64_t peers() const { return transfer_.peers(); }
  const HaloLists& lists() const { return lists_; }

  void start(const RoundPlanes<Memory>& planes, std::int64_t live) override {
    transfer_.start(lastRound(planes), live);
  }
  void finish(const RoundPlanes<Memory>& planes, std::int64_t live) override {
    transfer_.finish(lastRound(planes), live);
  }

  IndexRange interior() const override { return lists_.interior; }

  void combineChanged(const Kokkos::View<int*, Memory>& changed, std::int64_t live) override {
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), changed);
    mpiCheck(
        kWho,
        MPI_Allreduce(MPI_IN_PLACE, host.data(), static_cast<int>(live), MPI_INT, MPI_MAX, comm_),
        "MPI_Allreduce");
    Kokkos::deep_copy(changed, host);
  }

  void combineFirst(std::vector<std::int64_t>& devices) override {
    constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t& d : devices) d = d < 0 ? kNone : ids_[static_cast<std::size_t>(d)];
    mpiCheck(kWho,
             MPI_Allreduce(MPI_IN_PLACE, devices.data(), static_cast<int>(devices.size()),
                           MPI_INT64_T, MPI_MIN, comm_),
             "MPI_Allreduce");
    for (std::int64_t& d : devices) d = d == kNone ? -1 : d;
  }

 private:
  // Export planes, exchanges' messages, presence keys: in that order on the wire.
  static std::vector<HaloBlock> blocks(const HaloLayout& layout) {
    return {HaloBlock{0, layout.exports, 0, false},
            HaloBlock{0, layout.edgePlanes, layout.edgeRow, true},
            HaloBlock{1, layout.keyed ? layout.exports : 0, 0, false}};
  }
  static HaloPlanes<Memory> lastRound(const RoundPlanes<Memory>& planes) {
    HaloPlanes<Memory> p;
    p[0] = planes.exportsPrev;
    p[1] = planes.presencePrev;
    return p;
  }

  MPI_Comm comm_;
  std::vector<std::int64_t> ids_;
  HaloLists lists_;
  HaloTransfer<ExecSpace> transfer_;
};

}  // namespace kfield::impl

#endif
#endif
