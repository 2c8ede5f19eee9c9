// A simulation's asynchronous firings level by level (Levels.hpp): for each live sample
// position in turn, the round kernel over each level's list of devices, on the position's
// column of the planes. Definitions of BasicSimulation's members, reached through
// Simulation.hpp.
#ifndef KFIELD_SIM_IMPL_SIMULATIONLEVELS_HPP
#define KFIELD_SIM_IMPL_SIMULATIONLEVELS_HPP

#include "kfield/sim/Simulation.hpp"

namespace kfield {

template <class ExecSpace>
bool BasicSimulation<ExecSpace>::runLevels(
    std::int64_t live, const Kokkos::View<const double*, Kokkos::HostSpace>& horizon) {
  if (!levels_) levels_.emplace(devices_);
  restoreExports(live);
  const impl::Clock<ExecSpace> c = clock();
  const std::int64_t exports = planes_.edgeRow / devices_;
  const std::int64_t edgePlanes = program_.edgePlanes;
  // No sample is fresh on a Schedule: keys say who has fired.
  Kokkos::deep_copy(space_, fresh_, 0);
  impl::RoundKernel<ExecSpace> k = assembly_.kernel(false, net_, parameters_, planes_, devices_);
  k.live = 1;
  k.anyFresh = false;
  k.writeOutput = true;
  k.clockRow = c.row;
  k.retain = schedule_->retain;
  // A spawn's overflow, per spawn, of the position whose level runs (RoundKernel::overflow).
  const std::int64_t spawns = overflow_.extent(0) > 0 ? overflow_.extent(0) / samples_ : 0;
  Kokkos::View<std::int64_t*, Memory> overflow;
  if (spawns > 0) overflow = Kokkos::View<std::int64_t*, Memory>("kfield::sim::overflow", spawns);
  const auto none = std::numeric_limits<std::int64_t>::max();
  auto checkLevelOverflow = [&](std::int64_t p) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), overflow);
    bool any = false;
    for (std::int64_t i = 0; i < spawns; ++i) any = any || host(i) != none;
    if (!any) return;
    auto all = Kokkos::create_mirror_view(overflow_);
    Kokkos::deep_copy(all, none);
    for (std::int64_t i = 0; i < spawns; ++i) all(i * samples_ + p) = host(i);
    Kokkos::deep_copy(overflow_, all);
    checkOverflow(live);  // throws
  };
  for (std::int64_t p = 0; p < live; ++p) {
    k.planes = planes_.fromColumn(p);
    k.firing = impl::columnsFrom(firing_, p);
    k.fresh = Kokkos::subview(fresh_, std::make_pair(p, p + 1));
    k.roundOf = Kokkos::subview(roundOf_, std::make_pair(p, p + 1));
    k.overflow = overflow;
    int now = 0;
    std::int64_t size = levels_->start(space_, c, firing_, p, horizon(p));
    while (size > 0) {
      k.list = levels_->lists[now].data();
      if (spawns > 0) Kokkos::deep_copy(space_, overflow, none);
      launchRound(k, {0, size});
      size = levels_->release(space_, c, firing_, planes_, exports, edgePlanes, now, size, p,
                              sampleAt_[p], horizon(p));
      now = 1 - now;
      if (spawns > 0) checkLevelOverflow(p);
    }
    if (size < 0) return false;
  }
  return true;
}

}  // namespace kfield

#endif
