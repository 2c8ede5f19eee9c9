// A simulation's asynchronous firings level by level (Levels.hpp): for each live sample
// position in turn, the round kernel over each level's list of devices, on planes that hold
// that position alone (the simulation's own with one sample, else SampleRows). Definitions of
// BasicSimulation's members, reached through Simulation.hpp.
#ifndef KFIELD_SIM_IMPL_SIMULATIONLEVELS_HPP
#define KFIELD_SIM_IMPL_SIMULATIONLEVELS_HPP

#include "kfield/sim/Simulation.hpp"

namespace kfield {

template <class ExecSpace>
bool BasicSimulation<ExecSpace>::runLevels(
    std::int64_t live, const Kokkos::View<const double*, Kokkos::HostSpace>& horizon) {
  if (!levels_) levels_.emplace(devices_);
  restoreExports(live);
  // Several samples: a block of positions at a time, each position's values in rows of their
  // own (SampleRows).
  using Rows = impl::SampleRows<ExecSpace>;
  const bool byRows = samples_ > 1;
  if (byRows && !(sampleRows_ && sampleRows_->fits(planes_)))
    sampleRows_ = std::make_shared<Rows>(planes_, devices_);
  const std::int64_t exports = planes_.edgeRow / devices_;
  const std::int64_t edgePlanes = program_.edgePlanes;
  // No sample is fresh on a Schedule: keys say who has fired.
  Kokkos::deep_copy(space_, fresh_, 0);
  impl::RoundKernel<ExecSpace> k = assembly_.kernel(false, net_, parameters_, planes_, devices_);
  k.live = 1;
  k.anyFresh = false;
  k.writeOutput = true;
  k.clockRow = clock().row;
  k.retain = schedule_->retain;
  // A spawn's overflow, per spawn, of the position whose level runs (RoundKernel::overflow).
  const std::int64_t spawns = overflow_.extent(0) > 0 ? overflow_.extent(0) / samples_ : 0;
  Kokkos::View<std::int64_t*, Memory> overflow;
  if (spawns > 0) overflow = Kokkos::View<std::int64_t*, Memory>("kfield::sim::overflow", spawns);
  const auto overflowHost = Kokkos::create_mirror_view(overflow);  // read after each level
  const auto none = std::numeric_limits<std::int64_t>::max();
  // Position p's firings before its horizon, on `planes` and `firing` that hold it alone (as
  // their column 0): false if a tie stopped them, and a spawn's overflow thrown once `done`
  // has put the planes back.
  auto runPosition = [&](std::int64_t p, const impl::RoundPlanes<Memory>& planes,
                         const typename impl::Clock<ExecSpace>::Firing& firing, const auto& done) {
    impl::Clock<ExecSpace> c = clock();
    c.states = planes.states;
    k.planes = planes;
    k.firing = firing;
    k.fresh = Kokkos::subview(fresh_, std::make_pair(p, p + 1));
    k.roundOf = Kokkos::subview(roundOf_, std::make_pair(p, p + 1));
    k.overflow = overflow;
    k.list = levels_->list.data();
    bool someOff = false;
    std::int64_t size = levels_->start(space_, c, firing, 0, sampleAt_[p], horizon(p), someOff);
    const auto release = levels_->release(space_, c, firing, planes, exports, edgePlanes, 0,
                                          sampleAt_[p], horizon(p), someOff);
    while (size > 0) {
      if (spawns > 0) Kokkos::deep_copy(space_, overflow, none);
      launchRound(k, {0, size});
      Kokkos::parallel_for("kfield::sim::levels_release",
                           Kokkos::RangePolicy<ExecSpace>(space_, 0, size), release);
      size = levels_->collect(space_, firing, 0, devices_);
      if (spawns == 0) continue;
      Kokkos::deep_copy(overflowHost, overflow);
      bool any = false;
      for (std::int64_t i = 0; i < spawns; ++i) any = any || overflowHost(i) != none;
      if (!any) continue;
      done();
      auto all = Kokkos::create_mirror_view(overflow_);
      Kokkos::deep_copy(all, none);
      for (std::int64_t i = 0; i < spawns; ++i) all(i * samples_ + p) = overflowHost(i);
      Kokkos::deep_copy(overflow_, all);
      checkOverflow(live);  // throws
    }
    return size == 0;
  };
  if (!byRows) return runPosition(0, planes_, firing_, [] {});  // one sample
  const Rows& rows = *sampleRows_;
  for (std::int64_t first = 0; first < live; first += Rows::kBlock) {
    const std::int64_t m = std::min(Rows::kBlock, live - first);
    rows.gather(space_, planes_, first, m);
    bool tie = false;
    for (std::int64_t q = 0; q < m && !tie; ++q) {
      tie = !runPosition(first + q, rows.planesOf(q), rows.firingOf(q),
                         [&] { rows.scatter(space_, planes_, first, m); });
    }
    rows.scatter(space_, planes_, first, m);
    if (tie) return false;
  }
  return true;
}

}  // namespace kfield

#endif
