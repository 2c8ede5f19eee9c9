#include "kfield/learn/OwnerPlacement.hpp"

#include "kfield/impl/Bits.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/impl/Mpi.hpp"
#include "kfield/learn/Partition.hpp"

#include <string>

namespace kfield {

namespace {

constexpr const char* kWho = "kfield::OwnerPlacement";

#if KFIELD_ENABLE_MPI
void check(int rc, const char* call) { impl::mpiCheck(kWho, rc, call); }
#endif

// Partials as little-endian words: n, begin, end, width, node count, (level, index) per node,
// then the values.
std::vector<unsigned char> serialize(const Partials<double>& p) {
  impl::ByteWriter out;
  for (std::int64_t v : {p.n, p.begin, p.end, p.width, static_cast<std::int64_t>(p.nodes.size())}) {
    out.word(static_cast<std::uint64_t>(v));
  }
  for (const TreeNode& node : p.nodes) {
    out.word(static_cast<std::uint64_t>(node.level));
    out.word(static_cast<std::uint64_t>(node.index));
  }
  for (double v : p.values) out.value(v);
  return out.bytes;
}

Partials<double> deserialize(const std::vector<unsigned char>& bytes) {
  impl::ByteReader in(bytes, "kfield::OwnerPlacement: partials");
  Partials<double> p;
  p.n = static_cast<std::int64_t>(in.word());
  p.begin = static_cast<std::int64_t>(in.word());
  p.end = static_cast<std::int64_t>(in.word());
  p.width = static_cast<std::int64_t>(in.word());
  const auto nodes = static_cast<std::int64_t>(in.word());
  if (p.width < 0 || nodes < 0 || static_cast<std::uint64_t>(nodes) > in.wordsLeft() / 2) {
    impl::runtimeError(kWho, "partials of the wrong size");
  }
  for (std::int64_t j = 0; j < nodes; ++j) {
    TreeNode node;
    node.level = static_cast<int>(in.word());
    node.index = static_cast<std::int64_t>(in.word());
    p.nodes.push_back(node);
  }
  const auto width = static_cast<std::size_t>(p.width);
  if (nodes > 0 && width > in.wordsLeft() / static_cast<std::size_t>(nodes)) {
    impl::runtimeError(kWho, "partials of the wrong size");
  }
  const std::size_t values = static_cast<std::size_t>(nodes) * width;
  if (in.wordsLeft() != values) impl::runtimeError(kWho, "partials of the wrong size");
  p.values.resize(values);
  for (double& v : p.values) v = in.value();
  return p;
}

}  // namespace

#if KFIELD_ENABLE_MPI
OwnerPlacement OwnerPlacement::overRanks(MPI_Comm comm) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized)
    impl::invalidArgument("kfield::OwnerPlacement::overRanks", "MPI is not initialised");
  OwnerPlacement p;
  p.comm_ = comm;
  check(MPI_Comm_size(comm, &p.ranks_), "MPI_Comm_size");
  check(MPI_Comm_rank(comm, &p.rank_), "MPI_Comm_rank");
  return p;
}
#endif

std::int64_t OwnerPlacement::replicas(std::int64_t owners) const {
  return overRanks() ? ranks_ : owners;
}

IndexRange OwnerPlacement::localReplicas(std::int64_t owners) const {
  return overRanks() ? IndexRange{rank_, rank_ + 1} : IndexRange{0, owners};
}

IndexRange OwnerPlacement::ownersOf(std::int64_t replica, std::int64_t owners) const {
  if (!overRanks()) return {replica, replica + 1};
  const std::int64_t first = shareBegin(owners, ranks_, replica);
  return {first, first + shareSize(owners, ranks_, replica)};
}

const char* OwnerPlacement::replicaNoun() const { return overRanks() ? "rank" : "owner"; }

std::vector<std::vector<unsigned char>> OwnerPlacement::allgather(
    const std::vector<unsigned char>& local) const {
  if (!overRanks()) return {local};
#if KFIELD_ENABLE_MPI
  const long long mine = static_cast<long long>(local.size());
  std::vector<long long> sizes(static_cast<std::size_t>(ranks_));
  check(MPI_Allgather(&mine, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, comm_),
        "MPI_Allgather");
  std::vector<int> counts(sizes.size()), offsets(sizes.size());
  long long total = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    if (total + sizes[r] > 2147483647LL) {
      impl::runtimeError(kWho, "more than 2^31 bytes in one exchange");
    }
    offsets[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(sizes[r]);
    total += sizes[r];
  }
  std::vector<unsigned char> all(static_cast<std::size_t>(total));
  check(MPI_Allgatherv(local.data(), static_cast<int>(mine), MPI_UNSIGNED_CHAR, all.data(),
                       counts.data(), offsets.data(), MPI_UNSIGNED_CHAR, comm_),
        "MPI_Allgatherv");
  std::vector<std::vector<unsigned char>> out(sizes.size());
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    out[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + counts[r]);
  }
  return out;
#else
  impl::runtimeError(kWho, "several ranks without MPI");
#endif
}

Partials<double> OwnerPlacement::combine(Partials<double> local) const {
  if (!overRanks()) return local;
  const auto gathered = allgather(serialize(local));
  Partials<double> all = deserialize(gathered[0]);
  for (std::size_t r = 1; r < gathered.size(); ++r) {
    all = mergePartials(all, deserialize(gathered[r]));
  }
  return all;
}

}  // namespace kfield
