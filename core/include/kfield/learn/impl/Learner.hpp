// Definitions of DataParallelLearner's members (kfield/learn/Learner.hpp).
#ifndef KFIELD_LEARN_IMPL_LEARNER_HPP
#define KFIELD_LEARN_IMPL_LEARNER_HPP

#include "kfield/impl/Bits.hpp"
#include "kfield/impl/Errors.hpp"
#include "kfield/learn/Partition.hpp"

#include <string>
#include <utility>

namespace kfield {

template <class ExecSpace, class Contribution>
DataParallelLearner<ExecSpace, Contribution>::DataParallelLearner(const DataParallelSystem& system,
                                                                  Contribution contribution,
                                                                  LearnerOptions options,
                                                                  ExecSpace space)
    : contribution_(std::move(contribution)), options_(options), space_(space) {
  requireAdmitted(system, "kfield::DataParallelLearner");
  if constexpr (impl::IsRowContribution<Contribution>::value) {
    if (system.contributionIdentity != contribution_.identityBytes()) {
      impl::invalidArgument("kfield::DataParallelLearner",
                            "the system's contribution is not this contribution (another program, "
                            "network or loss)");
    }
  } else if (!system.contributionIdentity.empty()) {
    impl::invalidArgument("kfield::DataParallelLearner",
                          "the system's contribution is given by its identity (a field program's "
                          "gradient): construct the learner with that contribution "
                          "(diff::FieldContribution)");
  }
  plan_ =
      impl::planLearner(system, options_.placement, options_.checkEvery, options_.partitionState);
  identity_.parameterCount = system.parameters;
  identity_.rate = system.rate;
  // A system held in part is hashed across the ranks, each rank its own samples.
  SpreadIdentity identities = identityAcrossRanks(system, options_.placement);
  identity_.systemIdentity = identities.system;
  identity_.learnerIdentity = identities.learner;
  identity_.numericalContract = learnerNumericalContract();
  identity_.owners = static_cast<std::int64_t>(system.owners.size());
  identity_.sampleWidth = system.sampleWidth;
  identity_.samples = system.totalMass();
  identity_.ruleIdentity = ruleIdentity(system);
  identity_.sampleHashes = std::move(identities.sampleHashes);
  if (!system.heldInPart()) impl::requireSameSystem(options_.placement, identity_.systemIdentity);
  const auto& p = plan_;
  const auto R = static_cast<std::size_t>(p.replicas);

  // This process's samples, in order, one row each.
  const std::int64_t first = p.ownerBegin[static_cast<std::size_t>(p.localOwners.begin)];
  const std::int64_t local = p.ownerBegin[static_cast<std::size_t>(p.localOwners.end)] - first;
  samples_ = decltype(samples_)("kfield::learn::samples", local, p.s);
  {
    auto h = Kokkos::create_mirror_view(samples_);
    std::int64_t row = 0;
    for (std::int64_t o = p.localOwners.begin; o < p.localOwners.end; ++o) {
      for (const auto& sample : system.owners[static_cast<std::size_t>(o)]) {
        for (std::int64_t c = 0; c < p.s; ++c) {
          h(row, c) = valueOf(sample[static_cast<std::size_t>(c)]);
        }
        ++row;
      }
    }
    Kokkos::deep_copy(samples_, h);
  }
  if constexpr (impl::IsRowContribution<Contribution>::value) {
    rows_ = decltype(rows_)("kfield::learn::rows", local, p.k);
  }
  tasks_ = impl::upload<Memory>(p.tasks, "kfield::learn::tasks");
  merges_ = impl::upload<Memory>(p.merges, "kfield::learn::merges");
  sums_ = decltype(sums_)("kfield::learn::task_sums", p.tasks.size(), p.k);
  params_ = decltype(params_)("kfield::learn::parameters", R, p.k);
  state_ = decltype(state_)("kfield::learn::state", R, p.m);
  {
    auto hp = Kokkos::create_mirror_view(params_);
    auto hs = Kokkos::create_mirror_view(state_);
    for (std::size_t r = 0; r < R; ++r) {
      for (std::int64_t c = 0; c < p.k; ++c) {
        hp(r, c) = valueOf(system.initialParameters[static_cast<std::size_t>(c)]);
      }
      for (std::int64_t c = 0; c < p.m; ++c) {
        hs(r, c) = valueOf(system.initialState[static_cast<std::size_t>(c)]);
      }
    }
    Kokkos::deep_copy(params_, hp);
    Kokkos::deep_copy(state_, hs);
  }
  mean_ = decltype(mean_)("kfield::learn::mean", p.k);
  rate_ = decltype(rate_)("kfield::learn::rate", 1);
  Kokkos::deep_copy(rate_, valueOf(identity_.rate));

  for (std::size_t r = 0; r < R; ++r) {
    if (p.perCoordinateState < 0) {
      update_.emplace_back(system.update, p.k, p.m);
      continue;
    }
    const IndexRange own = p.coordinates[static_cast<std::size_t>(p.localReplicas.begin) + r];
    update_.emplace_back(
        ownedProgram(system, p.perCoordinateState,
                     [own](std::int64_t c) { return c >= own.begin && c < own.end; }),
        p.k, p.m);
  }
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::run(std::int64_t steps) {
  if (steps < 0) {
    impl::invalidArgument("kfield::DataParallelLearner::run",
                          "steps = " + std::to_string(steps) + " is negative");
  }
  for (std::int64_t j = 0; j < steps; ++j) {
    step();
    if (options_.checkEvery > 0 && step_ % options_.checkEvery == 0) checkReplicas();
  }
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::step() {
  const auto& p = plan_;
  if constexpr (impl::IsRowContribution<Contribution>::value) {
    // Replicas hold the same parameters (compared every checkEvery steps): the first one's.
    auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), params_);
    contribution_.rows(std::vector<double>(w.data(), w.data() + p.k), samples_, rows_);
    impl::taskSums(space_, impl::CopyRow{p.k}, tasks_, rows_, params_, sums_);
  } else {
    impl::taskSums(space_, contribution_, tasks_, samples_, params_, sums_);
  }
  // One process holding every owner finishes the mean on the device; otherwise this
  // process's partials (a few rows) go to the host and over the ranks.
  const bool whole = options_.placement.ranks() == 1 && p.partialRows.size() == 1;
  const double mass = static_cast<double>(p.mass);  // exact: admitted masses are < 2^53
  impl::mergeTaskSums(space_, merges_, sums_, whole ? p.partialRows[0] : -1, mass, mean_);
  if (!whole) {
    Partials<double> mine = emptyPartials<double>(
        p.ownerBegin[static_cast<std::size_t>(p.localOwners.begin)], p.mass, p.k);
    mine.end = p.ownerBegin[static_cast<std::size_t>(p.localOwners.end)];
    mine.nodes = p.partialNodes;
    mine.values.resize(p.partialRows.size() * static_cast<std::size_t>(p.k));
    for (std::size_t j = 0; j < p.partialRows.size(); ++j) {
      Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> row(
          mine.values.data() + j * static_cast<std::size_t>(p.k), static_cast<std::size_t>(p.k));
      Kokkos::deep_copy(row, Kokkos::subview(sums_, p.partialRows[j], Kokkos::ALL));
    }
    const std::vector<double> numerator =
        finishPartials(options_.placement.combine(std::move(mine)));
    auto h = Kokkos::create_mirror_view(mean_);
    for (std::int64_t c = 0; c < p.k; ++c) h(c) = numerator[static_cast<std::size_t>(c)] / mass;
    Kokkos::deep_copy(mean_, h);
  }
  for (int r = 0; r < p.replicas; ++r) {
    update_[static_cast<std::size_t>(r)].run(space_, &params_(r, 0), state_.data() + r * p.m,
                                             mean_.data(), rate_.data());
  }
  if (p.perCoordinateState >= 0) gatherPartitioned();
  space_.fence();
  ++step_;
}

// Every replica's coordinate-owned words (its parameters and per-coordinate state words) go
// to every other; shared state words are computed alike by every replica and stay.
template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::gatherPartitioned() {
  const auto& p = plan_;
  const std::int64_t q = p.perCoordinateState;
  space_.fence();
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), params_);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_);
  // Run j < 0: parameters; run j >= 0: state word j of every coordinate.
  auto word = [&](int r, std::int64_t j, std::int64_t c) -> double& {
    return j < 0 ? hp(r, c) : hs(r, j * p.k + c);
  };
  impl::ByteWriter mine;
  for (int r = 0; r < p.replicas; ++r) {
    const IndexRange own = p.coordinates[static_cast<std::size_t>(p.localReplicas.begin + r)];
    for (std::int64_t j = -1; j < q; ++j) {
      for (std::int64_t c = own.begin; c < own.end; ++c) mine.value(word(r, j, c));
    }
  }
  std::vector<unsigned char> all;
  for (const auto& bytes : options_.placement.allgather(mine.bytes)) {
    all.insert(all.end(), bytes.begin(), bytes.end());
  }
  impl::ByteReader in(all, "kfield::DataParallelLearner: partitioned state");
  for (const IndexRange& own : p.coordinates) {  // every replica, in order
    for (std::int64_t j = -1; j < q; ++j) {
      for (std::int64_t c = own.begin; c < own.end; ++c) {
        const double v = in.value();
        for (int r = 0; r < p.replicas; ++r) word(r, j, c) = v;
      }
    }
  }
  in.requireEnd();
  Kokkos::deep_copy(params_, hp);
  Kokkos::deep_copy(state_, hs);
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::checkReplicas() {
  impl::ByteWriter mine;
  for (int r = 0; r < plan_.replicas; ++r) {
    const std::uint64_t hp = impl::wordsHash(space_, Kokkos::subview(params_, r, Kokkos::ALL));
    const std::uint64_t hs = impl::wordsHash(space_, Kokkos::subview(state_, r, Kokkos::ALL));
    mine.word(hp * 0x100000001B3ull + hs);
  }
  std::vector<std::uint64_t> hashes;
  for (const auto& bytes : options_.placement.allgather(mine.bytes)) {
    impl::ByteReader in(bytes, "kfield::DataParallelLearner: replica hashes");
    while (in.wordsLeft() > 0) hashes.push_back(in.word());
  }
  impl::checkHashes(hashes, options_.placement.replicaNoun(), step_);
}

template <class ExecSpace, class Contribution>
LearnerState DataParallelLearner<ExecSpace, Contribution>::state() const {
  space_.fence();
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), params_);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_);
  LearnerState out = identity_;
  for (std::int64_t c = 0; c < plan_.k; ++c) out.parameters.push_back(wordOf(hp(0, c)));
  for (std::int64_t c = 0; c < plan_.m; ++c) out.state.push_back(wordOf(hs(0, c)));
  out.step = step_;
  return out;
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::resume(const LearnerState& saved) {
  LearnerState current = identity_;
  current.state.resize(static_cast<std::size_t>(plan_.m));  // compared by size only
  std::string difference = firstDifference(saved, current);
  if (difference.empty() && saved.parameters.size() != static_cast<std::size_t>(plan_.k)) {
    difference = "it holds " + std::to_string(saved.parameters.size()) + " parameter words, not " +
                 std::to_string(plan_.k);
  }
  if (difference.empty() && saved.step < 0) {
    difference = "step " + std::to_string(saved.step) + " is negative";
  }
  if (!difference.empty()) {
    impl::invalidArgument("kfield::DataParallelLearner::resume",
                          "the saved state is not of this learner's system: " + difference);
  }
  auto hp = Kokkos::create_mirror_view(params_);
  auto hs = Kokkos::create_mirror_view(state_);
  for (int r = 0; r < plan_.replicas; ++r) {
    for (std::int64_t c = 0; c < plan_.k; ++c) hp(r, c) = valueOf(saved.parameters[std::size_t(c)]);
    for (std::int64_t c = 0; c < plan_.m; ++c) hs(r, c) = valueOf(saved.state[std::size_t(c)]);
  }
  Kokkos::deep_copy(params_, hp);
  Kokkos::deep_copy(state_, hs);
  step_ = saved.step;
}

}  // namespace kfield

#endif
