#include "kfield/field/Programs.hpp"

#include "kfield/field/Library.hpp"
#include "kfield/field/NeuralField.hpp"
#include "kfield/impl/Errors.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace kfield::lib {
namespace {

Field<bool> source(Program& p) { return p.sense<bool>("source"); }
Field<double> value(Program& p) { return p.sense<double>("value"); }

// The neural field's parameters as a library program starts them: Glorot draws from seed 1.
std::vector<ParameterDefault> neuralDefaults() {
  std::vector<ParameterDefault> out;
  const std::vector<std::vector<double>> values = neuralInitialParameters({}, 1);
  const std::vector<NeuralParameter> layers = neuralParameters({});
  for (std::size_t l = 0; l < layers.size(); ++l) out.push_back({layers[l].name, values[l]});
  return out;
}

double longestEdge(const NetworkFacts& net) {
  return net.longestLength == 0.0 ? 1.0 : net.longestLength;
}

// f(p) traced under the program's library name. Sensors are read one statement at a time, so
// their order (LibraryProgram::sensors) does not hang on the order arguments are evaluated in.
template <class F>
TracedProgram traced(const char* name, F&& f) {
  return trace([&](Program& p) { return toDouble(f(p)); }, name);
}

}  // namespace

NetworkFacts::NetworkFacts(const Network& network)
    : NetworkFacts(ofRows(network, {0, network.devices()})) {}

NetworkFacts NetworkFacts::ofRows(const Network& network, IndexRange rows) {
  NetworkFacts facts;
  const auto& offsets = network.offsets();
  for (std::int64_t d = rows.begin; d < rows.end; ++d) {
    facts.largestDegree = std::max(facts.largestDegree, offsets[d + 1] - offsets[d] - 1);
  }
  const std::vector<double> lengths = network.lengths();  // none without given lengths or positions
  if (rows.size() > 0 && !lengths.empty()) {
    for (std::int64_t k = offsets[rows.begin]; k < offsets[rows.end]; ++k) {
      facts.longestLength = std::max(facts.longestLength, lengths[std::size_t(k)]);
    }
  }
  return facts;
}

const std::vector<LibraryProgram>& programs() {
  static const std::vector<LibraryProgram> table{
      {"hop-gradient",
       "hops to the nearest source",
       {"source"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("hop-gradient", [](Program& p) { return hopGradient(p, source(p)); });
       }},
      {"distance-gradient",
       "distance to the nearest source along edge lengths",
       {"source"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("distance-gradient",
                       [](Program& p) { return distanceGradient(p, source(p)); });
       }},
      {"broadcast",
       "the value at the nearest source",
       {"source", "value"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("broadcast", [](Program& p) {
           const Field<bool> s = source(p);
           return broadcast(p, s, value(p));
         });
       }},
      {"collect-sum",
       "the sum of value over each source's catchment, at the source",
       {"source", "value"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("collect-sum", [](Program& p) {
           const Field<bool> s = source(p);
           return collectSum(p, s, value(p));
         });
       },
       DefaultValues::Ones},
      {"election",
       "the id of the nearest leader (leaders more than radius hops apart)",
       {},
       {},
       [](const NetworkFacts&, const ProgramSettings& s) {
         return traced("election", [&](Program& p) { return election(p, s.radius); });
       }},
      {"channel",
       "1 on the devices of a channel from source to destination round obstacles",
       {"source", "destination", "obstacle"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("channel", [](Program& p) {
           const Field<bool> s = source(p);
           const Field<bool> destination = p.sense<bool>("destination");
           return channel(p, s, destination, p.sense<bool>("obstacle"), 0.5);
         });
       }},
      {"gossip-max",
       "the largest value in the device's part of the network",
       {"value"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("gossip-max", [](Program& p) { return gossipMax(p, value(p)); });
       }},
      {"consensus",
       "averaging consensus of value",
       {"value"},
       {},
       [](const NetworkFacts& net, const ProgramSettings& s) {
         if (!(s.rate >= 0.0) || !std::isfinite(s.rate)) {
           impl::invalidArgument("kfield::lib::consensus",
                                 "rate must be finite and >= 0, got " + std::to_string(s.rate));
         }
         const double rate = s.rate > 0.0 ? s.rate : 1.0 / double(net.largestDegree + 1);
         return traced("consensus", [&](Program& p) { return consensus(p, value(p), rate); });
       }},
      {"scaled-distance",
       "distance to the nearest source along edge lengths times a learnable scale",
       {"source"},
       {{"scale", {1.0}}},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("scaled-distance", [](Program& p) {
           const Field<bool> s = source(p);
           return distanceGradient(p, s, p.parameter("scale"));
         });
       }},
      {"learned-consensus",
       "consensus of value with a learnable rate (starting at 1 / (largest degree + 1))",
       {"value"},
       {{"rate", {0.0}}},  // 0: replaced by 1 / (largest degree + 1) of the network
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("learned-consensus", [](Program& p) {
           const Field<double> v = value(p);
           return consensus(p, v, p.parameter("rate"));
         });
       }},
      {"neural-distance",
       "a neural field (kfield train learns its weights): an MLP of what each device hears, "
       "its output the new state",
       {"source"},
       neuralDefaults(),
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("neural-distance", [](Program& p) { return neuralDistance(p, source(p)); });
       }},
      {"nearest-source",
       "(distance, value) of the nearest source: a tuple, one share of pairs",
       {"source", "value"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return trace(
             [](Program& p) {
               const Field<bool> s = source(p);
               return nearestSource(p, s, value(p));
             },
             "nearest-source");
       }},
      {"collect-weighted",
       "the sum of value at the source, by weighted multi-path collection (FCPP's wmp_collection; "
       "radius: twice the network's longest edge)",
       {"source", "value"},
       {},
       [](const NetworkFacts& net, const ProgramSettings&) {
         const double radius = 2.0 * longestEdge(net);
         return traced("collect-weighted", [radius](Program& p) {
           const Field<double> distance = distanceGradient(p, source(p));
           return collectWeighted(p, distance, radius, value(p));
         });
       },
       DefaultValues::Ones},
      {"collect-multipath",
       "the sum of value at the sources, by multi-path collection down the hop gradient (FCPP's "
       "mp_collection: equal parts to every neighbor one hop nearer)",
       {"source", "value"},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("collect-multipath", [](Program& p) {
           const Field<double> hops = hopGradient(p, source(p));
           return collectMultiPathSum(p, hops, value(p));
         });
       }},
      {"bis-gradient",
       "distance to the nearest source, healing at the network's information speed (BIS; "
       "speed: the longest edge per unit of time)",
       {"source"},
       {},
       [](const NetworkFacts& net, const ProgramSettings&) {
         const double speed = longestEdge(net);
         return traced("bis-gradient",
                       [speed](Program& p) { return bisGradient(p, source(p), speed); });
       }},
      {"shared-clock",
       "a clock the devices share: the time since the first device started (FCPP's shared_clock)",
       {},
       {},
       [](const NetworkFacts&, const ProgramSettings&) {
         return traced("shared-clock", [](Program& p) { return sharedClock(p); });
       }},
  };
  return table;
}

std::vector<double> defaultParameter(const LibraryProgram& program, const std::string& name,
                                     const NetworkFacts& network) {
  for (const ParameterDefault& p : program.parameters) {
    if (p.name != name) continue;
    if (program.name == "learned-consensus") return {1.0 / double(network.largestDegree + 1)};
    return p.values;
  }
  impl::invalidArgument("kfield::lib::defaultParameter",
                        "program '" + program.name + "' has no parameter '" + name + "'");
}

const LibraryProgram* findProgram(const std::string& name) {
  for (const LibraryProgram& program : programs()) {
    if (program.name == name) return &program;
  }
  return nullptr;
}

}  // namespace kfield::lib
