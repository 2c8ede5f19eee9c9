#include "kfield/io/Restart.hpp"

#include "Format.hpp"
#include "kfield/impl/Sizes.hpp"

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

RestartSlots createRestart(const Group& root, const TracedProgram& program, const Network& network,
                           const SimulationCarry& carry, const RunInputs& inputs) {
  const Group g = root.createGroup("restart");
  for (const auto& [name, value] : inputs) g.setAttribute("input_" + name, value);
  g.setAttribute("run_identity", runIdentity(program, network));
  g.setAttribute("program", program.name);
  g.setAttribute("network", network.description());
  g.setAttribute("samples", std::int64_t(carry.rounds.size()));
  if (carry.schedule) {  // a run on a Schedule: its clock rows follow the program's states
    g.setAttribute("schedule_period", carry.schedule->period);
    g.setAttribute("schedule_jitter", carry.schedule->jitter);
    g.setAttribute("schedule_seed", std::to_string(carry.schedule->seed));
    g.setAttribute("schedule_retain", carry.schedule->retain);
    g.setAttribute("schedule_first_sample", std::to_string(carry.schedule->firstSample));
  }
  if (carry.motion) {  // moving devices: the motion (each device's state in it is in the slots)
    const Motion& m = *carry.motion;
    g.setAttribute("motion_model", std::string(Motion::modelName(m.model)));
    g.setAttribute("motion_speed", m.speed);
    g.setAttribute("motion_radius", m.radius);
    g.setAttribute("motion_rebuild_every", m.rebuildEvery);
    g.setAttribute("motion_seed", std::to_string(m.seed));
    const std::pair<const char*, double> area[] = {{"motion_xmin", m.xmin},
                                                   {"motion_xmax", m.xmax},
                                                   {"motion_ymin", m.ymin},
                                                   {"motion_ymax", m.ymax}};
    for (const auto& [name, value] : area) g.setAttribute(name, value);
  }
  RestartSlots slots;
  // Chunks of about the carry's size (at most 2^17 values): a small carry, a small file.
  std::uint64_t values = carry.motionState.size();
  for (const auto& [name, plane] : carryPlanes(carry)) values += plane->size();
  Storage grows{std::clamp<std::uint64_t>(values, 512, std::uint64_t(1) << 17), true, 0, true};
  for (const char* name : {"carry0", "carry1"})
    slots.words.push_back(g.create<double>(name, {0}, grows));
  slots.layout.push_back(g.create<std::int64_t>("layout", {2, kLayoutWords + carry.rounds.size()}));
  return slots;
}

void writeCarry(RestartSlots& slots, int slot, const SimulationCarry& carry) {
  const std::size_t b = carry.rounds.size();
  std::vector<std::int64_t> layout;
  std::vector<double> words;
  for (const auto& [name, plane] : carryPlanes(carry)) {
    if (plane->extent(1) != b) {
      throw FileError("kfield::io::SimulationExport::commit", slots.layout[0].path(),
                      std::string(name) + " of " + std::to_string(plane->extent(1)) +
                          " samples, expected " + std::to_string(b));
    }
    layout.push_back(std::int64_t(plane->extent(0)));
    words.insert(words.end(), plane->data(), plane->data() + plane->size());
  }
  layout.push_back(std::int64_t(carry.motionState.size()));
  words.insert(words.end(), carry.motionState.begin(), carry.motionState.end());
  layout.insert(layout.end(), carry.rounds.begin(), carry.rounds.end());
  Dataset& into = slots.words[std::size_t(slot)];
  if (into.dims()[0] < words.size()) into.extend(words.size());
  if (!words.empty()) into.writeRows(words.data(), 0, words.size());
  slots.layout[0].writeRows(layout.data(), std::uint64_t(slot), 1);
}

LastCarry lastCarry(const File& file, const Group& g, std::uint64_t b) {
  // The slot of the last commit: the one the writer wrote before it recorded that commit.
  const Dataset commits = file.group("simulation").dataset("commits");
  if (commits.dims().size() != 1) commits.require(Type::Int64, {commits.elements()});
  commits.require(Type::Int64, commits.dims());
  const std::uint64_t made = commits.dims()[0];
  if (made == 0) file.fail("no snapshot was committed: nothing to resume from");
  const auto slot = static_cast<std::uint64_t>((made - 1) % 2);
  const Dataset layoutSet = g.dataset("layout");
  layoutSet.require(Type::Int64, {2, kLayoutWords + b});
  std::vector<std::int64_t> layout(kLayoutWords + b);
  layoutSet.read(layout.data(), slot, 1);
  for (std::uint64_t s = 0; s < b; ++s) {
    const std::int64_t r = layout[kLayoutWords + s];
    if (r < 0)
      g.fail("layout: slot " + std::to_string(slot) + " holds round " + std::to_string(r) +
             ": negative");
  }
  Dataset words = g.dataset(slot == 0 ? "carry0" : "carry1");
  if (words.dims().size() != 1) words.require(Type::Float64, {words.elements()});
  words.require(Type::Float64, words.dims());
  std::uint64_t needed = 0;
  for (std::size_t j = 0; j < kLayoutWords; ++j) {
    if (layout[j] < 0)
      g.fail("layout: slot " + std::to_string(slot) + " holds a negative size " +
             std::to_string(layout[j]));
    const std::uint64_t count = j + 1 < kLayoutWords
                                    ? kfield::impl::product({std::uint64_t(layout[j]), b})
                                    : std::uint64_t(layout[j]);
    needed = kfield::impl::total({needed, count});
  }
  if (needed > words.dims()[0]) {
    words.fail("holds " + std::to_string(words.dims()[0]) +
               " values, but its slot's layout needs " +
               (needed == kfield::impl::kSaturated ? std::string("more than 2^64")
                                                   : std::to_string(needed)));
  }
  return LastCarry{slot, std::move(layout), std::move(words), needed};
}

}  // namespace impl

SimulationCarry loadRestart(const std::string& path, const TracedProgram& program,
                            const Network& network, std::int64_t samples, const RunInputs& inputs) {
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
  const auto b = static_cast<std::uint64_t>(samples);
  const std::int64_t stored = g.intAttribute("samples");
  if (stored != samples) {
    g.fail("the run has " + std::to_string(stored) + (stored == 1 ? " sample" : " samples") +
           ", not " + std::to_string(samples));
  }
  const auto attributes = g.attributeNames();
  RunInputs recorded;
  for (const std::string& a : attributes) {
    if (a.rfind("input_", 0) == 0) recorded.emplace_back(a.substr(6), g.stringAttribute(a));
  }
  for (const auto& [name, value] : inputs) {
    const auto at = std::find_if(recorded.begin(), recorded.end(),
                                 [&](const auto& r) { return r.first == name; });
    if (at == recorded.end())
      g.fail("the run recorded no " + name + " (it was given " + value + " now)");
    if (at->second != value) {
      g.fail("the run was made with " + name + " " + at->second + ", not " + value +
             ": continued with other inputs it would give a field no uninterrupted run gives");
    }
  }
  for (const auto& [name, value] : recorded) {
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&](const auto& i) { return i.first == name; })) {
      g.fail("the run was made with " + name + " " + value + ", which is not given now");
    }
  }
  const impl::LastCarry last = impl::lastCarry(file, g, b);
  const std::vector<std::int64_t>& layout = last.layout;
  const impl::Dataset& words = last.words;
  const std::uint64_t slot = last.slot, needed = last.needed;
  SimulationCarry carry;
  carry.rounds.assign(layout.begin() + impl::kLayoutWords, layout.end());
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
    for (const Motion::Model k :
         {Motion::Model::Straight, Motion::Model::Waypoint, Motion::Model::Velocity}) {
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
    if (!m.hasArea())
      g.fail("the motion's area is empty: xmin " + kfield::impl::numberText(m.xmin) + " > xmax " +
             kfield::impl::numberText(m.xmax));
    carry.motion = m;
  }
  const std::uint64_t motionWords = std::uint64_t(layout[impl::kLayoutWords - 1]);
  if (motionWords != (carry.motion ? 7 * std::uint64_t(network.devices()) : 0)) {
    g.fail("layout: slot " + std::to_string(slot) + " holds " + std::to_string(motionWords) +
           " motion values, expected " + std::to_string(carry.motion ? 7 * network.devices() : 0));
  }
  words.requireFits(sizeof(double), needed);
  std::vector<double> all(needed);
  if (needed > 0) words.read(all.data(), 0, needed);
  std::size_t at = 0, j = 0;
  for (const auto& [name, into] : impl::carryPlanes(carry)) {
    HostPlane plane(std::string("kfield::restart::") + name, std::size_t(layout[j++]), b);
    std::copy(all.begin() + std::ptrdiff_t(at), all.begin() + std::ptrdiff_t(at + plane.size()),
              plane.data());
    at += plane.size();
    *into = plane;
  }
  carry.motionState.assign(all.begin() + std::ptrdiff_t(at), all.end());
  return carry;
}

}  // namespace kfield::io
