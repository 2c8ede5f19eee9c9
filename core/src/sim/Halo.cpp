#include "kfield/sim/impl/Halo.hpp"

#include <algorithm>
#include <string>

#if KFIELD_ENABLE_MPI
namespace kfield::impl {

namespace {

constexpr const char* kWho = "kfield::DistributedSimulation";

std::vector<int> intCounts(const std::vector<std::vector<std::int64_t>>& lists,
                           std::vector<int>& at) {
  std::vector<int> counts(lists.size());
  at.assign(lists.size(), 0);
  std::int64_t total = 0;
  for (std::size_t q = 0; q < lists.size(); ++q) {
    at[q] = static_cast<int>(total);
    total += static_cast<std::int64_t>(lists[q].size());
    if (total > INT_MAX) runtimeError(kWho, "more than 2^31 - 1 ghosts in one part");
    counts[q] = static_cast<int>(lists[q].size());
  }
  return counts;
}

// lists[q]: what this part sends part q; returns what each part q sent this one.
std::vector<std::vector<std::int64_t>> allToAll(const std::vector<std::vector<std::int64_t>>& lists,
                                                MPI_Comm comm) {
  std::vector<int> sendAt, recvAt;
  const std::vector<int> sendCounts = intCounts(lists, sendAt);
  std::vector<int> recvCounts(lists.size());
  mpiCheck(kWho, MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, comm),
           "MPI_Alltoall");
  std::vector<std::vector<std::int64_t>> got(lists.size());
  for (std::size_t q = 0; q < lists.size(); ++q)
    got[q].resize(static_cast<std::size_t>(recvCounts[q]));
  const std::vector<int> check = intCounts(got, recvAt);
  std::vector<std::int64_t> out, in;
  for (const auto& l : lists) out.insert(out.end(), l.begin(), l.end());
  in.resize(static_cast<std::size_t>(recvAt.empty() ? 0 : recvAt.back() + check.back()));
  mpiCheck(kWho,
           MPI_Alltoallv(out.data(), sendCounts.data(), sendAt.data(), MPI_INT64_T, in.data(),
                         recvCounts.data(), recvAt.data(), MPI_INT64_T, comm),
           "MPI_Alltoallv");
  for (std::size_t q = 0; q < lists.size(); ++q) {
    std::copy(in.begin() + recvAt[q], in.begin() + recvAt[q] + recvCounts[q], got[q].begin());
  }
  return got;
}

}  // namespace

HaloLists haloLists(const NetworkPart& part, const DevicePartition& partition, MPI_Comm comm,
                    bool entries) {
  int ranks = 0, rank = 0;
  mpiCheck(kWho, MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  mpiCheck(kWho, MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  const auto& offsets = part.network.offsets();
  const auto& neighbors = part.network.neighbors();
  const std::int64_t local = part.network.devices();
  const auto owned = [&](std::int64_t i) { return i >= part.owned.begin && i < part.owned.end; };
  const auto q = static_cast<std::size_t>(ranks);

  // The ghosts, by owner; each owner learns which of its devices a part hears.
  std::vector<std::vector<std::int64_t>> recvDevices(q), wanted(q);
  for (std::int64_t i = 0; i < local && part.owned.size() > 0; ++i) {
    if (owned(i)) continue;
    const int owner = partition.ownerOf(part.ids[i]);
    recvDevices[owner].push_back(i);
    wanted[owner].push_back(part.ids[i]);
  }
  std::vector<std::vector<std::int64_t>> sendDevices = allToAll(wanted, comm);
  std::string problem;
  for (std::size_t r = 0; r < q; ++r) {
    for (std::int64_t& id : sendDevices[r]) {
      const std::int64_t i = part.localOf(id);
      if ((i < 0 || !owned(i)) && problem.empty()) {
        problem = "rank " + std::to_string(r) + " hears device " + std::to_string(id) +
                  ", which rank " + std::to_string(rank) +
                  " does not own (the ranks hold parts of different networks)";
      }
      id = i;
    }
  }
  failOnEveryRank(kWho, problem, comm);

  // Messages of exchanges: a ghost's entries for the devices here (all of its row but itself),
  // and a device's entries for ghosts of part r, both ascending.
  std::vector<std::vector<std::int64_t>> recvEntries(q), sendEntries(q);
  if (entries) {
    for (std::size_t r = 0; r < q; ++r) {
      for (std::int64_t i : recvDevices[r]) {
        for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
          if (neighbors[k] != i) recvEntries[r].push_back(k);
        }
      }
      for (std::int64_t g : sendDevices[r]) {
        for (std::int64_t k = offsets[g]; k < offsets[g + 1]; ++k) {
          const std::int64_t j = neighbors[k];
          if (!owned(j) && partition.ownerOf(part.ids[j]) == static_cast<int>(r))
            sendEntries[r].push_back(k);
        }
      }
    }
    std::vector<std::vector<std::int64_t>> counts(q);
    for (std::size_t r = 0; r < q; ++r)
      counts[r] = {static_cast<std::int64_t>(sendEntries[r].size())};
    const auto expected = allToAll(counts, comm);
    for (std::size_t r = 0; r < q && problem.empty(); ++r) {
      if (expected[r][0] != static_cast<std::int64_t>(recvEntries[r].size())) {
        problem = "rank " + std::to_string(r) + " sends " + std::to_string(expected[r][0]) +
                  " messages to rank " + std::to_string(rank) + ", which expects " +
                  std::to_string(recvEntries[r].size()) + ": an exchange needs a symmetric network";
      }
    }
    failOnEveryRank(kWho, problem, comm);
  }

  HaloLists lists;
  lists.local = local;
  lists.entries = part.network.entries();
  // Owned devices whose rows hold no ghost: the longest run of them computes during the exchange.
  IndexRange run{part.owned.begin, part.owned.begin};
  for (std::int64_t i = part.owned.begin, begin = i; i < part.owned.end; ++i) {
    bool hearsGhost = false;
    for (std::int64_t k = offsets[i]; k < offsets[i + 1] && !hearsGhost; ++k)
      hearsGhost = !owned(neighbors[k]);
    if (hearsGhost) {
      begin = i + 1;
    } else if (i + 1 - begin > run.size()) {
      run = {begin, i + 1};
    }
  }
  lists.interior = run;
  for (std::size_t r = 0; r < q; ++r) {
    if (sendDevices[r].empty() && recvDevices[r].empty()) continue;
    lists.peers.push_back(static_cast<int>(r));
    lists.sendDevices.push_back(std::move(sendDevices[r]));
    lists.recvDevices.push_back(std::move(recvDevices[r]));
    lists.sendEntries.push_back(std::move(sendEntries[r]));
    lists.recvEntries.push_back(std::move(recvEntries[r]));
  }
  return lists;
}

void requireSymmetric(const char* who, const std::string& what, const NetworkPart& part,
                      const DevicePartition& partition, MPI_Comm comm) {
  int ranks = 0;
  mpiCheck(who, MPI_Comm_size(comm, &ranks), "MPI_Comm_size");
  const auto& offsets = part.network.offsets();
  const auto& neighbors = part.network.neighbors();
  const auto owned = [&](std::int64_t i) { return i >= part.owned.begin && i < part.owned.end; };
  const auto hears = [&](std::int64_t i, std::int64_t j) {  // an owned device's row holds j
    return std::binary_search(neighbors.begin() + offsets[i], neighbors.begin() + offsets[i + 1],
                              std::int32_t(j));
  };
  std::string problem;
  const auto asymmetric = [&](std::int64_t hearer, std::int64_t heard) {
    if (problem.empty()) {
      problem = what + " needs a symmetric network: device " + std::to_string(hearer) +
                " hears device " + std::to_string(heard) + ", but " + std::to_string(heard) +
                " does not hear " + std::to_string(hearer);
    }
  };
  // (heard ghost, hearer) pairs, to the ghosts' owners; pairs among owned devices checked here.
  std::vector<std::vector<std::int64_t>> pairs(static_cast<std::size_t>(ranks));
  for (std::int64_t i = part.owned.begin; i < part.owned.end; ++i) {
    for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
      const std::int64_t j = neighbors[k];
      if (!owned(j)) {
        auto& to = pairs[static_cast<std::size_t>(partition.ownerOf(part.ids[j]))];
        to.push_back(part.ids[j]);
        to.push_back(part.ids[i]);
      } else if (!hears(j, i)) {
        asymmetric(part.ids[i], part.ids[j]);
      }
    }
  }
  for (const std::vector<std::int64_t>& got : allToAll(pairs, comm)) {
    for (std::size_t p = 0; p + 1 < got.size(); p += 2) {
      const std::int64_t heard = part.localOf(got[p]), hearer = part.localOf(got[p + 1]);
      if (hearer < 0 || !hears(heard, hearer)) asymmetric(got[p + 1], got[p]);
    }
  }
  failOnEveryRank(who, problem, comm);
}

HaloRows haloRows(const HaloLists& lists, const std::vector<HaloBlock>& blocks) {
  const auto addRows = [&](const std::vector<std::int64_t>& devices,
                           const std::vector<std::int64_t>& entries,
                           std::vector<std::int64_t>& rows) {
    for (const HaloBlock& b : blocks) {
      const std::vector<std::int64_t>& items = b.perEntry ? entries : devices;
      const std::int64_t stride = b.perEntry ? lists.entries : lists.local;
      for (std::int64_t c = 0; c < b.count; ++c) {
        for (std::int64_t i : items)
          rows.push_back((b.row + c * stride + i) * kHaloPlanes + b.plane);
      }
    }
  };
  HaloRows rows;
  rows.sendAt.push_back(0);
  rows.recvAt.push_back(0);
  for (std::size_t p = 0; p < lists.peers.size(); ++p) {
    addRows(lists.sendDevices[p], lists.sendEntries[p], rows.send);
    addRows(lists.recvDevices[p], lists.recvEntries[p], rows.recv);
    rows.sendAt.push_back(static_cast<std::int64_t>(rows.send.size()));
    rows.recvAt.push_back(static_cast<std::int64_t>(rows.recv.size()));
  }
  return rows;
}

}  // namespace kfield::impl
#endif
