#include "kfield/io/Checkpoint.hpp"

#include "Format.hpp"

#include "kfield/Errors.hpp"
#include "kfield/impl/Bits.hpp"

#include <cstring>

namespace kfield::io {

namespace {

constexpr const char* kKind = "learner-checkpoint";

// Words are binary64 values: stored as float64, bits unchanged, with no copy.
void writeWords(const impl::Group& g, const std::string& name, const std::vector<Word>& words) {
  const std::uint64_t n = words.size();
  const impl::Dataset d = g.create<double>(name, {n});
  if (n > 0) d.writeRaw(words.data(), impl::Type::Float64, 0, n);
}

std::vector<Word> readWords(const impl::Group& g, const std::string& name) {
  const impl::Dataset d = g.dataset(name);
  if (d.dims().size() != 1) d.require(impl::Type::Float64, {d.elements()});
  d.require(impl::Type::Float64, d.dims());
  d.requireFits(sizeof(Word));
  std::vector<Word> words(static_cast<std::size_t>(d.elements()));
  d.readRaw(words.data(), impl::Type::Float64, 0, d.elements());
  return words;
}

Digest digestOf(const impl::Group& g, const std::string& name) {
  const std::string hex = g.stringAttribute(name);
  Digest d{};
  auto nibble = [](char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
  };
  bool ok = hex.size() == 2 * d.size();
  for (std::size_t j = 0; ok && j < d.size(); ++j) {
    const int hi = nibble(hex[2 * j]), lo = nibble(hex[2 * j + 1]);
    ok = hi >= 0 && lo >= 0;
    d[j] = static_cast<unsigned char>(16 * hi + lo);
  }
  if (!ok) g.fail("attribute " + name + " is not 64 hexadecimal digits: '" + hex + "'");
  return d;
}

std::int64_t nonNegative(const impl::Group& g, const std::string& name) {
  const std::int64_t v = g.intAttribute(name);
  if (v < 0) g.fail("attribute " + name + " = " + std::to_string(v) + " is negative");
  return v;
}

void writeTraining(const impl::File& file, const TrainingRecord& t) {
  if (t.gradientNorm.size() != t.loss.size()) {
    throw FileError("kfield::io::saveCheckpoint", file.file(),
                    "the training log has " + std::to_string(t.loss.size()) + " losses and " +
                        std::to_string(t.gradientNorm.size()) + " gradient norms");
  }
  const impl::Group g = file.createGroup("training");
  g.setAttribute("config", t.config);
  g.setAttribute("report", t.report);
  g.write("loss", {std::uint64_t(t.loss.size())}, t.loss.data());
  g.write("gradient_norm", {std::uint64_t(t.gradientNorm.size())}, t.gradientNorm.data());
  const impl::Group fields = g.createGroup("fields");
  for (const PositionedField& f : t.fields) {
    const std::uint64_t n = f.values.size();
    if (f.x.size() != n || f.y.size() != n || (!f.expected.empty() && f.expected.size() != n)) {
      throw FileError("kfield::io::saveCheckpoint", file.file(),
                      "field '" + f.name + "' has arrays of different sizes");
    }
    const impl::Group h = fields.createGroup(f.name);
    h.setAttribute("title", f.title);
    h.write("x", {n}, f.x.data());
    h.write("y", {n}, f.y.data());
    h.write("values", {n}, f.values.data());
    if (!f.expected.empty()) h.write("expected", {n}, f.expected.data());
  }
}

std::vector<double> readDoubles(const impl::Group& g, const std::string& name) {
  const impl::Dataset d = g.dataset(name);
  d.require(impl::Type::Float64, {d.dims().size() == 1 ? d.dims()[0] : d.elements()});
  d.requireFits(sizeof(double));
  return d.readAll<double>();
}

}  // namespace

void saveCheckpoint(const std::string& path, const LearnerState& s,
                    const CheckpointOptions& options) {
  if (s.parameters.size() != static_cast<std::size_t>(s.parameterCount)) {
    throw FileError("kfield::io::saveCheckpoint", path,
                    "the state holds " + std::to_string(s.parameters.size()) +
                        " parameters but says " + std::to_string(s.parameterCount));
  }
  impl::writeAtomically(path, options.keep, [&](impl::File& file) {
    impl::writeHeader(file, kKind);
    const impl::Group g = file.createGroup("learner");
    g.setAttribute("step", s.step);
    g.setAttribute("rate", valueOf(s.rate));
    g.setAttribute("owners", s.owners);
    g.setAttribute("sample_width", s.sampleWidth);
    g.setAttribute("samples", s.samples);
    g.setAttribute("numerical_contract", s.numericalContract);
    g.setAttribute("system_identity", describe(s.systemIdentity));
    g.setAttribute("learner_identity", describe(s.learnerIdentity));
    g.setAttribute("rule_identity", describe(s.ruleIdentity));
    writeWords(g, "parameters", s.parameters);
    writeWords(g, "state", s.state);
    g.write("sample_hashes", {std::uint64_t(s.sampleHashes.size())}, s.sampleHashes.data());
    if (options.training) writeTraining(file, *options.training);
  });
}

void saveCheckpoint(const std::string& path, const LearnerState& state,
                    const OwnerPlacement& placement, const CheckpointOptions& options) {
  std::string failure;
  if (placement.rank() == 0) {
    try {
      saveCheckpoint(path, state, options);
    } catch (const std::exception& e) {
      failure = e.what();
      if (failure.empty()) failure = "kfield::io::saveCheckpoint: " + path + ": failed";
    }
  }
  // Rank 0's outcome to every rank (this is also the barrier): none waits on a failed write.
  const auto outcomes =
      placement.allgather(std::vector<unsigned char>(failure.begin(), failure.end()));
  const std::string first(outcomes.front().begin(), outcomes.front().end());
  if (!first.empty()) {
    throw FileError("kfield::io::saveCheckpoint", path,
                    "rank 0 could not write it: " + reason(first));
  }
}

LearnerState loadCheckpoint(const std::string& path) {
  const impl::File file = impl::openKind(path, kKind);
  const impl::Group g = file.group("learner");
  LearnerState s;
  s.step = nonNegative(g, "step");
  s.rate = wordOf(g.doubleAttribute("rate"));
  s.owners = nonNegative(g, "owners");
  s.sampleWidth = nonNegative(g, "sample_width");
  s.samples = nonNegative(g, "samples");
  s.numericalContract = g.stringAttribute("numerical_contract");
  s.systemIdentity = digestOf(g, "system_identity");
  s.learnerIdentity = digestOf(g, "learner_identity");
  s.ruleIdentity = digestOf(g, "rule_identity");

  s.parameters = readWords(g, "parameters");
  s.parameterCount = static_cast<std::int64_t>(s.parameters.size());
  s.state = readWords(g, "state");
  const impl::Dataset h = g.dataset("sample_hashes");
  h.require(impl::Type::UInt64, {std::uint64_t(s.samples)});
  s.sampleHashes = h.readAll<std::uint64_t>();
  return s;
}

TrainingRecord loadTrainingRecord(const std::string& path) {
  const impl::File file = impl::openKind(path, kKind);
  if (!file.has("training"))
    throw FileError("kfield::io::loadTrainingRecord", path,
                    "it holds no /training (not written by kfield train)");
  const impl::Group g = file.group("training");
  TrainingRecord t;
  t.config = g.stringAttribute("config");
  t.report = g.stringAttribute("report");
  t.loss = readDoubles(g, "loss");
  t.gradientNorm = readDoubles(g, "gradient_norm");
  if (t.loss.size() != t.gradientNorm.size())
    g.fail("loss and gradient_norm have different lengths");
  const impl::Group fields = g.group("fields");
  for (const std::string& name : fields.members()) {
    const impl::Group h = fields.group(name);
    PositionedField f;
    f.name = name;
    f.title = h.stringAttribute("title");
    f.x = readDoubles(h, "x");
    f.y = readDoubles(h, "y");
    f.values = readDoubles(h, "values");
    if (h.has("expected")) f.expected = readDoubles(h, "expected");
    const std::size_t n = f.values.size();
    if (f.x.size() != n || f.y.size() != n || (!f.expected.empty() && f.expected.size() != n)) {
      h.fail("x, y, values and expected have different lengths");
    }
    t.fields.push_back(std::move(f));
  }
  return t;
}

}  // namespace kfield::io
