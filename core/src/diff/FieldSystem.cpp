#include "kfield/diff/FieldContribution.hpp"

#include "kfield/Random.hpp"
#include "kfield/impl/Bits.hpp"
#include "kfield/impl/Errors.hpp"

#include <cstring>

namespace kfield::diff {

namespace {

constexpr const char* kWho = "kfield::diff::fieldSystem";

void putWord(std::vector<unsigned char>& out, std::uint64_t w) {
  unsigned char b[8];
  kfield::impl::storeWord(w, b);
  out.insert(out.end(), b, b + 8);
}

void putText(std::vector<unsigned char>& out, const std::string& text) {
  putWord(out, text.size());
  out.insert(out.end(), text.begin(), text.end());
}

std::uint64_t bitsOf(double x) { return kfield::impl::bitsOf(x); }

}  // namespace

std::int64_t fieldSampleWidth(const TracedProgram& program, const Network& network) {
  return 1 + (static_cast<std::int64_t>(program.sensors.size()) + program.outputWidth) *
                 network.devices();
}

std::vector<Word> fieldSample(const TracedProgram& program, const Network& network,
                              std::int64_t stop,
                              const std::map<std::string, std::vector<double>>& sensors,
                              const std::vector<double>& target) {
  const auto devices = static_cast<std::size_t>(network.devices());
  if (stop < 0)
    kfield::impl::invalidArgument("kfield::diff::fieldSample",
                                  "stop round " + std::to_string(stop) + " is negative");
  std::vector<Word> words{wordOf(static_cast<double>(stop))};
  for (const SensorInfo& sensor : program.sensors) {
    const auto found = sensors.find(sensor.name);
    if (found == sensors.end()) {
      kfield::impl::invalidArgument("kfield::diff::fieldSample",
                                    "no values for sensor '" + sensor.name + "'");
    }
    if (found->second.size() != devices) {
      kfield::impl::invalidArgument("kfield::diff::fieldSample",
                                    "sensor '" + sensor.name + "' has " +
                                        std::to_string(found->second.size()) + " values for " +
                                        std::to_string(devices) + " devices");
    }
    for (double v : found->second) words.push_back(wordOf(v));
  }
  for (const auto& [name, values] : sensors) {
    if (program.sensorIndex(name) < 0) {
      kfield::impl::invalidArgument(
          "kfield::diff::fieldSample",
          "program '" + program.name + "' reads no sensor '" + name + "'");
    }
  }
  const std::size_t targets = static_cast<std::size_t>(program.outputWidth) * devices;
  if (target.size() != targets) {
    kfield::impl::invalidArgument("kfield::diff::fieldSample",
                                  "the target has " + std::to_string(target.size()) +
                                      " values for " + std::to_string(devices) + " devices x " +
                                      std::to_string(program.outputWidth) + " output components");
  }
  for (double v : target) words.push_back(wordOf(v));
  return words;
}

std::vector<unsigned char> fieldContributionIdentity(const TracedProgram& program,
                                                     const Network& network) {
  std::vector<unsigned char> out;
  putText(out, "kfield field gradient v1; loss: squared error at the stop round");
  putText(out, describe(program));
  for (const auto& e : program.valueEntries) {  // entry programs' constants are not in the graph
    putWord(out, static_cast<std::uint64_t>(e.code));
    putWord(out, bitsOf(e.constant));
  }
  putText(out, network.description());
  putWord(out, static_cast<std::uint64_t>(network.devices()));
  putWord(out, static_cast<std::uint64_t>(network.entries()));
  std::uint64_t h = 0;  // the arrays themselves, folded into one word
  for (std::int64_t o : network.offsets()) h = kfield::mix64(h, static_cast<std::uint64_t>(o));
  for (std::int32_t j : network.neighbors()) h = kfield::mix64(h, static_cast<std::uint64_t>(j));
  for (double l : network.lengths()) h = kfield::mix64(h, bitsOf(l));
  putWord(out, h);
  return out;
}

DataParallelSystem fieldSystem(const TracedProgram& program, const Network& network,
                               const rules::UpdateRule& rule, double rate,
                               const std::vector<double>& initialParameters) {
  const std::int64_t k = program.parameterWidth();
  if (k == 0)
    kfield::impl::invalidArgument(kWho, "program '" + program.name + "' has no parameter to learn");
  if (static_cast<std::int64_t>(initialParameters.size()) != k) {
    kfield::impl::invalidArgument(kWho, std::to_string(initialParameters.size()) +
                                            " initial parameters for a parameter width of " +
                                            std::to_string(k));
  }
  DataParallelSystem system;
  system.parameters = k;
  system.sampleWidth = fieldSampleWidth(program, network);
  system.update = rule.update;
  system.initialState = rule.initialState;
  system.rate = wordOf(rate);
  for (double v : initialParameters) system.initialParameters.push_back(wordOf(v));
  system.contributionIdentity = fieldContributionIdentity(program, network);
  return system;
}

}  // namespace kfield::diff
