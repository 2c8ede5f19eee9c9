#include "kfield/io/Restart.hpp"

#include "Format.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <utility>


namespace kfield::io {

namespace impl {

// The carry's planes as /restart holds them, in this order (for a const carry or not).
template <class Carry>
auto carryPlanes(Carry& c) {
  using Plane = decltype(&c.states);
  return std::array<std::pair<const char*, Plane>, 5>{{{"states", &c.states},
                                                       {"state_keys", &c.stateKeys},
                                                       {"exports", &c.exports},
                                                       {"presence", &c.presence},
                                                       {"output", &c.output}}};
}

void writeRestart(const Group& root, const TracedProgram& program, const Network& network,
                  const SimulationCarry& carry) {
  const Group g = root.createGroup("restart");
  g.setAttribute("run_identity", runIdentity(program, network));
  g.setAttribute("program", program.name);
  g.setAttribute("network", network.description());
  g.setAttribute("samples", std::int64_t(carry.rounds.size()));
  g.write("rounds", {std::uint64_t(carry.rounds.size())}, carry.rounds.data());
  if (carry.schedule) {  // a run on a Schedule: its clock rows follow the program's states
    g.setAttribute("schedule_period", carry.schedule->period);
    g.setAttribute("schedule_jitter", carry.schedule->jitter);
    g.setAttribute("schedule_seed", std::to_string(carry.schedule->seed));
    g.setAttribute("schedule_retain", carry.schedule->retain);
    g.setAttribute("schedule_first_sample", std::to_string(carry.schedule->firstSample));
  }
  if (carry.motion) {  // moving devices: the motion, and each device's state in it
    const Motion& m = *carry.motion;
    g.setAttribute("motion_model", std::string(Motion::modelName(m.model)));
    g.setAttribute("motion_speed", m.speed);
    g.setAttribute("motion_radius", m.radius);
    g.setAttribute("motion_rebuild_every", m.rebuildEvery);
    g.setAttribute("motion_seed", std::to_string(m.seed));
    const std::pair<const char*, double> area[] = {
        {"motion_xmin", m.xmin}, {"motion_xmax", m.xmax}, {"motion_ymin", m.ymin}, {"motion_ymax", m.ymax}};
    for (const auto& [name, value] : area) g.setAttribute(name, value);
    const std::uint64_t devices = carry.motionState.size() / 7;
    g.write("motion", {7, devices}, carry.motionState.data());
  }
  for (const auto& [name, plane] : carryPlanes(carry)) {
    // Bits unchanged: float64 written from the plane's doubles.
    g.write(name, {std::uint64_t(plane->extent(0)), std::uint64_t(plane->extent(1))}, plane->data());
  }
}

}  // namespace impl

SimulationCarry loadRestart(const std::string& path, const TracedProgram& program,
                            const Network& network, std::int64_t samples) {
  const impl::File file = impl::openKind(path, "simulation-export");
  if (!file.has("restart")) {
    file.fail("no /restart group: the export was written without the run's carry");
  }
  const impl::Group g = file.group("restart");
  if (g.stringAttribute("program") != program.name) {
    g.fail("the run is of program '" + g.stringAttribute("program") + "', not '" + program.name +
           "'");
  }
  if (g.stringAttribute("network") != network.description()) {
    g.fail("the run is on " + g.stringAttribute("network") + ", not " + network.description());
  }
  if (g.stringAttribute("run_identity") != runIdentity(program, network)) {
    g.fail("the run's program or network differs from this one (run identity " +
           g.stringAttribute("run_identity") + " vs " + runIdentity(program, network) + ")");
  }
  const std::int64_t stored = g.intAttribute("samples");
  if (stored != samples) {
    g.fail("the run has " + std::to_string(stored) + (stored == 1 ? " sample" : " samples") +
           ", not " + std::to_string(samples));
  }
  SimulationCarry carry;
  const impl::Dataset rounds = g.dataset("rounds");
  rounds.require(impl::Type::Int64, {std::uint64_t(samples)});
  carry.rounds = rounds.readAll<std::int64_t>();
  for (std::int64_t r : carry.rounds) {
    if (r < 0) g.fail("rounds holds " + std::to_string(r) + ": negative");
  }
  const auto attributes = g.attributeNames();
  auto word = [&](const char* name) {
    const std::string text = g.stringAttribute(name);
    char* end = nullptr;
    errno = 0;
    const std::uint64_t value = std::strtoull(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0 || text[0] == '-') {
      g.fail(std::string(name) + " is '" + text + "', not a whole number in [0, 2^64)");
    }
    return value;
  };
  if (std::find(attributes.begin(), attributes.end(), "schedule_period") != attributes.end()) {
    Schedule schedule;
    schedule.period = g.doubleAttribute("schedule_period");
    schedule.jitter = g.doubleAttribute("schedule_jitter");
    schedule.retain = g.doubleAttribute("schedule_retain");
    schedule.seed = word("schedule_seed");
    schedule.firstSample = word("schedule_first_sample");
    try {
      schedule.check("schedule");
    } catch (const std::invalid_argument& e) {
      g.fail(e.what());
    }
    carry.schedule = schedule;
  }
  if (std::find(attributes.begin(), attributes.end(), "motion_model") != attributes.end()) {
    Motion m;
    const std::string model = g.stringAttribute("motion_model");
    bool known = false;
    for (const Motion::Model k : {Motion::Model::Straight, Motion::Model::Waypoint, Motion::Model::Velocity}) {
      if (model == Motion::modelName(k)) m.model = k, known = true;
    }
    if (!known) g.fail("motion_model is '" + model + "', not straight, waypoint or velocity");
    m.speed = g.doubleAttribute("motion_speed");
    m.radius = g.doubleAttribute("motion_radius");
    m.rebuildEvery = g.intAttribute("motion_rebuild_every");
    m.seed = word("motion_seed");
    m.xmin = g.doubleAttribute("motion_xmin"), m.xmax = g.doubleAttribute("motion_xmax");
    m.ymin = g.doubleAttribute("motion_ymin"), m.ymax = g.doubleAttribute("motion_ymax");
    try {
      m.check("motion");
    } catch (const std::invalid_argument& e) {
      g.fail(e.what());
    }
    if (!m.hasArea()) g.fail("the motion's area is empty: xmin " + kfield::impl::numberText(m.xmin) + " > xmax " + kfield::impl::numberText(m.xmax));
    const impl::Dataset d = g.dataset("motion");
    d.require(impl::Type::Float64, {7, std::uint64_t(network.devices())});
    carry.motionState.resize(7 * static_cast<std::size_t>(network.devices()));
    d.read(carry.motionState.data());
    carry.motion = m;
  }
  for (const auto& [name, into] : impl::carryPlanes(carry)) {
    const impl::Dataset d = g.dataset(name);
    const auto dims = d.dims();
    if (dims.size() != 2 || dims[1] != std::uint64_t(samples)) {
      d.require(impl::Type::Float64, {dims.empty() ? 0 : dims[0], std::uint64_t(samples)});
    }
    d.require(impl::Type::Float64, dims);
    d.requireFits(sizeof(double));
    HostPlane plane(std::string("kfield::restart::") + name, dims[0], dims[1]);
    d.read(plane.data());
    *into = plane;
  }
  return carry;
}

}  // namespace kfield::io
