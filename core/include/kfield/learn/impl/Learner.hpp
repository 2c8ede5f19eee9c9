// Definitions of DataParallelLearner's members (kfield/learn/Learner.hpp).
#ifndef KFIELD_LEARN_IMPL_LEARNER_HPP
#define KFIELD_LEARN_IMPL_LEARNER_HPP

#include <stdexcept>
#include <utility>

namespace kfield {

namespace learn::impl {

// An update's four segments: parameters, state, mean, rate (only the first two written).
pointwise::impl::SlotLayout updateLayout(std::int64_t k, std::int64_t m);

}  // namespace learn::impl

template <class ExecSpace, class Contribution>
DataParallelLearner<ExecSpace, Contribution>::DataParallelLearner(const DataParallelSystem& system,
                                                                  Contribution contribution,
                                                                  LearnerOptions options,
                                                                  ExecSpace space)
    : system_(system), contribution_(std::move(contribution)), options_(options), space_(space) {
  requireAdmitted(system_, "DataParallelLearner");
  plan_ = learn::impl::plan(system_, options_);
  systemId_ = systemIdentity(system_);
  learnerId_ = learnerIdentity(system_);
  if (options_.placement.distributed()) learn::impl::requireSameSystem(options_.placement, systemId_);
  const auto& p = plan_;
  const auto R = static_cast<std::size_t>(p.replicas);

  // This rank's samples, in order, one row each.
  const std::int64_t first = p.ownerBegin[static_cast<std::size_t>(p.ownerFirst)];
  const std::int64_t local = p.ownerBegin[static_cast<std::size_t>(p.ownerLast)] - first;
  samples_ = decltype(samples_)("kfield::learn::samples", local, p.s);
  {
    auto h = Kokkos::create_mirror_view(samples_);
    std::int64_t row = 0;
    for (std::int64_t o = p.ownerFirst; o < p.ownerLast; ++o) {
      for (const auto& sample : system_.owners[static_cast<std::size_t>(o)]) {
        for (std::int64_t c = 0; c < p.s; ++c) h(row, c) = valueOf(sample[static_cast<std::size_t>(c)]);
        ++row;
      }
    }
    Kokkos::deep_copy(samples_, h);
  }
  pieces_ = decltype(pieces_)("kfield::learn::pieces", p.pieces.size());
  {
    auto h = Kokkos::create_mirror_view(pieces_);
    for (std::size_t j = 0; j < p.pieces.size(); ++j) h(j) = p.pieces[j];
    Kokkos::deep_copy(pieces_, h);
  }
  sums_ = decltype(sums_)("kfield::learn::piece_sums", p.pieces.size(), p.k);
  params_ = decltype(params_)("kfield::learn::parameters", R, p.k);
  state_ = decltype(state_)("kfield::learn::state", R, p.m);
  {
    auto hp = Kokkos::create_mirror_view(params_);
    auto hs = Kokkos::create_mirror_view(state_);
    for (std::size_t r = 0; r < R; ++r) {
      for (std::int64_t c = 0; c < p.k; ++c) hp(r, c) = valueOf(system_.initialParameters[static_cast<std::size_t>(c)]);
      for (std::int64_t c = 0; c < p.m; ++c) hs(r, c) = valueOf(system_.initialState[static_cast<std::size_t>(c)]);
    }
    Kokkos::deep_copy(params_, hp);
    Kokkos::deep_copy(state_, hs);
  }
  mean_ = decltype(mean_)("kfield::learn::mean", p.k);
  rate_ = decltype(rate_)("kfield::learn::rate", 1);
  Kokkos::deep_copy(rate_, valueOf(system_.rate));

  const auto layout = learn::impl::updateLayout(p.k, p.m);
  for (std::size_t r = 0; r < R; ++r) {
    pointwise::Program program = system_.update;
    if (options_.partitionState >= 0) {
      const std::int64_t cb = p.coordinateBegin[r], ce = p.coordinateBegin[r + 1];
      program = ownedProgram(system_, options_.partitionState,
                             [cb, ce](std::int64_t c) { return c >= cb && c < ce; });
    }
    updateHost_.push_back(pointwise::impl::compile(program, layout, "update"));
    update_.push_back(pointwise::impl::upload<Memory>(updateHost_.back()));
  }
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::run(std::int64_t steps) {
  if (steps < 0) throw std::invalid_argument("DataParallelLearner::run: steps = " + std::to_string(steps) + " is negative");
  for (std::int64_t j = 0; j < steps; ++j) {
    step();
    if (options_.checkEvery > 0 && step_ % options_.checkEvery == 0) checkReplicas();
  }
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::step() {
  const auto& p = plan_;
  learn::impl::pieceSums(space_, contribution_, pieces_, samples_, params_, sums_);
  auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sums_);

  // Each owner's partials from its pieces, merged in owner order, then over ranks.
  Partials<double> mine;
  for (std::int64_t o = p.ownerFirst; o < p.ownerLast; ++o) {
    const auto j = static_cast<std::size_t>(o - p.ownerFirst);
    const std::int64_t a = p.ownerBegin[static_cast<std::size_t>(o)];
    const std::int64_t b = p.ownerBegin[static_cast<std::size_t>(o) + 1];
    auto owner = impl::emptyPartials<double>("DataParallelLearner", a, b - a, p.mass,
                                             static_cast<int>(p.k));
    for (std::size_t q = p.ownerPieces[j]; q < p.ownerPieces[j + 1]; ++q) {
      impl::pushNode(owner, p.nodes[q], &sums(q, 0));
    }
    mine = o == p.ownerFirst ? std::move(owner) : mergePartials(mine, owner);
  }
  Partials<double> all = mine;
  if (options_.placement.distributed()) {
    const auto gathered = options_.placement.allgather(learn::impl::serialize(mine));
    all = learn::impl::deserialize(gathered[0]);
    for (std::size_t r = 1; r < gathered.size(); ++r) {
      all = mergePartials(all, learn::impl::deserialize(gathered[r]));
    }
  }
  const std::vector<double> numerator = finishPartials(all);
  {
    auto h = Kokkos::create_mirror_view(mean_);
    const double mass = static_cast<double>(p.mass);  // exact: admitted masses are < 2^53
    for (std::int64_t c = 0; c < p.k; ++c) h(c) = numerator[static_cast<std::size_t>(c)] / mass;
    Kokkos::deep_copy(mean_, h);
  }
  for (int r = 0; r < p.replicas; ++r) {
    pointwise::impl::Segments seg;
    seg.base[0] = &params_(r, 0);
    seg.base[1] = state_.data() + r * p.m;
    seg.base[2] = mean_.data();
    seg.base[3] = rate_.data();
    learn::impl::runUpdate(space_, updateHost_[static_cast<std::size_t>(r)],
                           update_[static_cast<std::size_t>(r)], seg);
  }
  if (options_.partitionState >= 0) gatherPartitioned();
  space_.fence();
  ++step_;
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::gatherPartitioned() {
  const auto& p = plan_;
  const std::int64_t q = options_.partitionState;
  using Range = std::pair<std::int64_t, std::int64_t>;
  // The coordinate-owned words of replica r: its parameters and per-coordinate state words.
  auto ownedRanges = [&](std::size_t r) {
    std::vector<std::pair<bool, Range>> out;  // (is state, range)
    const std::int64_t cb = p.coordinateBegin[r], ce = p.coordinateBegin[r + 1];
    out.push_back({false, {cb, ce}});
    for (std::int64_t j = 0; j < q; ++j) out.push_back({true, {j * p.k + cb, j * p.k + ce}});
    return out;
  };
  if (!options_.placement.distributed()) {
    for (int src = 0; src < p.replicas; ++src) {
      for (const auto& [isState, range] : ownedRanges(static_cast<std::size_t>(src))) {
        const auto& view = isState ? state_ : params_;
        for (int dst = 0; dst < p.replicas; ++dst) {
          if (dst == src || range.first == range.second) continue;
          Kokkos::deep_copy(space_, Kokkos::subview(view, dst, range),
                            Kokkos::subview(view, src, range));
        }
      }
    }
    const Range shared{q * p.k, p.m};  // computed by every owner; replica 0's go to all
    for (int dst = 1; dst < p.replicas && shared.first < shared.second; ++dst) {
      Kokkos::deep_copy(space_, Kokkos::subview(state_, dst, shared),
                        Kokkos::subview(state_, 0, shared));
    }
    return;
  }
  // Over ranks: each rank sends its coordinates' words; shared words stay as computed.
  space_.fence();
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), params_);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_);
  std::vector<unsigned char> mine;
  for (const auto& [isState, range] : ownedRanges(0)) {
    const double* src = isState ? &hs(0, 0) : &hp(0, 0);
    const auto* bytes = reinterpret_cast<const unsigned char*>(src + range.first);
    mine.insert(mine.end(), bytes, bytes + (range.second - range.first) * sizeof(double));
  }
  const auto all = options_.placement.allgather(mine);
  for (int rank = 0; rank < options_.placement.ranks(); ++rank) {
    if (rank == options_.placement.rank()) continue;
    // Rank `rank`'s coordinates: the union of its owners'.
    const std::int64_t o0 = shareBegin(p.owners, options_.placement.ranks(), rank);
    const std::int64_t o1 = o0 + shareSize(p.owners, options_.placement.ranks(), rank);
    const std::int64_t cb = shareBegin(p.k, p.owners, o0), ce = shareBegin(p.k, p.owners, o1);
    std::size_t at = 0;
    for (std::int64_t j = -1; j < q; ++j) {
      double* dst = j < 0 ? &hp(0, cb) : &hs(0, j * p.k + cb);
      const std::size_t bytes = static_cast<std::size_t>(ce - cb) * sizeof(double);
      std::memcpy(dst, all[static_cast<std::size_t>(rank)].data() + at, bytes);
      at += bytes;
    }
  }
  Kokkos::deep_copy(params_, hp);
  Kokkos::deep_copy(state_, hs);
}

template <class ExecSpace, class Contribution>
void DataParallelLearner<ExecSpace, Contribution>::checkReplicas() {
  std::vector<std::uint64_t> hashes;
  for (int r = 0; r < plan_.replicas; ++r) {
    const std::uint64_t hp = learn::impl::wordsHash(space_, Kokkos::subview(params_, r, Kokkos::ALL));
    const std::uint64_t hs = learn::impl::wordsHash(space_, Kokkos::subview(state_, r, Kokkos::ALL));
    hashes.push_back(hp * 0x100000001B3ull + hs);
  }
  if (options_.placement.distributed()) {
    std::vector<unsigned char> mine(sizeof(std::uint64_t));
    std::memcpy(mine.data(), &hashes[0], sizeof(std::uint64_t));
    hashes.clear();
    for (const auto& bytes : options_.placement.allgather(mine)) {
      std::uint64_t h;
      std::memcpy(&h, bytes.data(), sizeof h);
      hashes.push_back(h);
    }
  }
  learn::impl::checkHashes(hashes, options_.placement.distributed(), step_);
}

template <class ExecSpace, class Contribution>
LearnerState DataParallelLearner<ExecSpace, Contribution>::state() const {
  space_.fence();
  auto hp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), params_);
  auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_);
  LearnerState out;
  out.parameterCount = plan_.k;
  for (std::int64_t c = 0; c < plan_.k; ++c) out.parameters.push_back(wordOf(hp(0, c)));
  for (std::int64_t c = 0; c < plan_.m; ++c) out.state.push_back(wordOf(hs(0, c)));
  out.step = step_;
  out.rate = system_.rate;
  out.systemIdentity = systemId_;
  out.learnerIdentity = learnerId_;
  out.numericalContract = learnerNumericalContract();
  return out;
}

}  // namespace kfield

#endif
