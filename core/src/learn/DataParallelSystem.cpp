#include "kfield/learn/DataParallelSystem.hpp"

#include <openssl/evp.h>

#include <cstring>
#include <memory>
#include <stdexcept>

namespace kfield {

Word wordOf(double value) {
  Word w;
  std::memcpy(&w, &value, sizeof w);
  return w;
}

double valueOf(Word word) {
  double v;
  std::memcpy(&v, &word, sizeof v);
  return v;
}

std::int64_t DataParallelSystem::totalMass() const {
  std::int64_t mass = 0;
  for (const auto& owned : owners) mass += static_cast<std::int64_t>(owned.size());
  return mass;
}

const char* name(Admission condition) {
  switch (condition) {
    case Admission::Admitted: return "admitted";
    case Admission::NoParameters: return "parameter count is zero";
    case Admission::ContributionSlots: return "contribution slot count is not 2k + s";
    case Admission::UpdateSlots: return "update slot count is not 2k + m + 1";
    case Admission::InitialParameters: return "initial parameters are not k words";
    case Admission::ContributionWritesOutside: return "contribution writes outside its output";
    case Admission::UpdateWritesOutside: return "update writes outside parameters and state";
    case Admission::FewerThanTwoOwners: return "fewer than two owners";
    case Admission::NoSamples: return "total mass is zero";
    case Admission::MassTooLarge: return "total mass is not below 2^53";
    case Admission::SampleWidth: return "a sample's width is not s";
    case Admission::MalformedProgram: return "a program is malformed";
  }
  return "unknown";
}

namespace {

std::string str(std::int64_t v) { return std::to_string(v); }

// The first assignment writing outside [low, high), or -1.
std::int64_t writesOutside(const pointwise::Program& p, std::int64_t low, std::int64_t high) {
  for (std::size_t j = 0; j < p.assignments.size(); ++j) {
    const auto& a = p.assignments[j];
    if (a.dest < low || pointwise::writtenEnd(a) > high) return static_cast<std::int64_t>(j);
  }
  return -1;
}

}  // namespace

AdmissionResult admitted(const DataParallelSystem& sys) {
  const std::int64_t k = sys.parameters;
  const std::int64_t s = sys.sampleWidth;
  const std::int64_t m = sys.stateWords();
  auto fail = [](Admission c, std::string detail) { return AdmissionResult{c, std::move(detail)}; };
  if (k <= 0) return fail(Admission::NoParameters, "k = " + str(k));
  if (s < 0 || sys.contribution.slots != 2 * k + s) {
    return fail(Admission::ContributionSlots, "contribution has " + str(sys.contribution.slots) +
                                                  " slots, 2k + s = " + str(2 * k + s));
  }
  if (sys.update.slots != 2 * k + m + 1) {
    return fail(Admission::UpdateSlots, "update has " + str(sys.update.slots) +
                                            " slots, 2k + m + 1 = " + str(2 * k + m + 1));
  }
  if (static_cast<std::int64_t>(sys.initialParameters.size()) != k) {
    return fail(Admission::InitialParameters,
                str(static_cast<std::int64_t>(sys.initialParameters.size())) + " words, k = " + str(k));
  }
  if (auto j = writesOutside(sys.contribution, k + s, 2 * k + s); j >= 0) {
    return fail(Admission::ContributionWritesOutside,
                "assignment " + str(j) + " writes slot " +
                    str(sys.contribution.assignments[static_cast<std::size_t>(j)].dest) +
                    ", outputs are [" + str(k + s) + ", " + str(2 * k + s) + ")");
  }
  if (auto j = writesOutside(sys.update, 0, k + m); j >= 0) {
    return fail(Admission::UpdateWritesOutside,
                "assignment " + str(j) + " writes slot " +
                    str(sys.update.assignments[static_cast<std::size_t>(j)].dest) +
                    ", outputs are [0, " + str(k + m) + ")");
  }
  if (sys.owners.size() < 2) {
    return fail(Admission::FewerThanTwoOwners, str(static_cast<std::int64_t>(sys.owners.size())) + " owner(s)");
  }
  const std::int64_t mass = sys.totalMass();
  if (mass == 0) return fail(Admission::NoSamples, "no owner holds a sample");
  if (mass >= (std::int64_t(1) << 53)) return fail(Admission::MassTooLarge, str(mass) + " samples");
  for (std::size_t o = 0; o < sys.owners.size(); ++o) {
    for (std::size_t j = 0; j < sys.owners[o].size(); ++j) {
      if (static_cast<std::int64_t>(sys.owners[o][j].size()) != s) {
        return fail(Admission::SampleWidth, "owner " + str(static_cast<std::int64_t>(o)) + " sample " +
                                                str(static_cast<std::int64_t>(j)) + " has " +
                                                str(static_cast<std::int64_t>(sys.owners[o][j].size())) +
                                                " words, s = " + str(s));
      }
    }
  }
  try {
    pointwise::validate(sys.contribution, "contribution");
    pointwise::validate(sys.update, "update");
  } catch (const std::invalid_argument& e) {
    return fail(Admission::MalformedProgram, e.what());
  }
  return {};
}

void requireAdmitted(const DataParallelSystem& system, const std::string& what) {
  const AdmissionResult r = admitted(system);
  if (!r) {
    throw std::invalid_argument(what + ": not admitted: " + name(r.condition) + ": " + r.detail);
  }
}

// ---- identities ----

namespace {

void putWord(const ByteSink& sink, std::uint64_t w) {
  unsigned char b[8];
  for (int j = 0; j < 8; ++j) b[j] = static_cast<unsigned char>(w >> (8 * j));
  sink(b, 8);
}

// Little-endian words, buffered so the sink sees large pieces.
void putWords(const ByteSink& sink, const std::vector<Word>& words) {
  putWord(sink, words.size());
  unsigned char buf[8 * 512];
  std::size_t used = 0;
  for (Word w : words) {
    for (int j = 0; j < 8; ++j) buf[used++] = static_cast<unsigned char>(w >> (8 * j));
    if (used == sizeof buf) {
      sink(buf, used);
      used = 0;
    }
  }
  if (used) sink(buf, used);
}

void putText(const ByteSink& sink, const char* text) {
  sink(reinterpret_cast<const unsigned char*>(text), std::strlen(text));
}

std::vector<unsigned char> collect(const std::function<void(const ByteSink&)>& write) {
  std::vector<unsigned char> bytes;
  // resize + memcpy: GCC 12 falsely reports vector::insert of these pieces as an overflow.
  write([&](const unsigned char* d, std::size_t n) {
    const std::size_t used = bytes.size();
    bytes.resize(used + n);
    if (n > 0) std::memcpy(bytes.data() + used, d, n);
  });
  return bytes;
}

Digest digestOf(const std::function<void(const ByteSink&)>& write) {
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("kfield identity: OpenSSL could not start a SHA-256 digest");
  }
  write([&](const unsigned char* d, std::size_t n) { EVP_DigestUpdate(ctx.get(), d, n); });
  Digest digest{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1 || size != digest.size()) {
    throw std::runtime_error("kfield identity: OpenSSL could not finish a SHA-256 digest");
  }
  return digest;
}

}  // namespace

void writeRuleIdentity(const DataParallelSystem& system, const ByteSink& sink) {
  putWord(sink, static_cast<std::uint64_t>(system.parameters));
  putWord(sink, static_cast<std::uint64_t>(system.sampleWidth));
  for (const auto* program : {&system.contribution, &system.update}) {
    const auto bytes = pointwise::identityBytes(*program);
    sink(bytes.data(), bytes.size());
  }
  putWords(sink, system.initialParameters);
  putWords(sink, system.initialState);
  putWord(sink, system.rate);
}

void writeSystemIdentity(const DataParallelSystem& system, const ByteSink& sink) {
  putText(sink, "alpha-data-parallel-v1;");
  writeRuleIdentity(system, sink);
  for (const auto& owned : system.owners) {
    putWord(sink, owned.size());
    for (const auto& sample : owned) putWords(sink, sample);
  }
}

void writeLearnerIdentity(const DataParallelSystem& system, const ByteSink& sink) {
  putText(sink, "alpha-data-parallel-learner-v1;");
  writeRuleIdentity(system, sink);
  putWord(sink, static_cast<std::uint64_t>(system.totalMass()));
  for (const auto& owned : system.owners) {
    for (const auto& sample : owned) putWords(sink, sample);
  }
}

std::vector<unsigned char> systemIdentityBytes(const DataParallelSystem& system) {
  return collect([&](const ByteSink& sink) { writeSystemIdentity(system, sink); });
}
std::vector<unsigned char> learnerIdentityBytes(const DataParallelSystem& system) {
  return collect([&](const ByteSink& sink) { writeLearnerIdentity(system, sink); });
}
Digest systemIdentity(const DataParallelSystem& system) {
  return digestOf([&](const ByteSink& sink) { writeSystemIdentity(system, sink); });
}
Digest learnerIdentity(const DataParallelSystem& system) {
  return digestOf([&](const ByteSink& sink) { writeLearnerIdentity(system, sink); });
}
Digest sha256(const std::vector<unsigned char>& bytes) {
  return digestOf([&](const ByteSink& sink) { sink(bytes.data(), bytes.size()); });
}

std::string hex(const Digest& digest) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

// ---- placement ----

std::int64_t shareSize(std::int64_t total, std::int64_t parts, std::int64_t j) {
  return total / parts + (j < total % parts ? 1 : 0);
}

std::int64_t shareBegin(std::int64_t total, std::int64_t parts, std::int64_t j) {
  const std::int64_t extra = total % parts;
  return j * (total / parts) + (j < extra ? j : extra);
}

DataParallelSystem repartitioned(const DataParallelSystem& system, std::int64_t owners) {
  if (owners < 1) {
    throw std::invalid_argument("repartitioned: owners = " + str(owners) + ", need at least 1");
  }
  DataParallelSystem out = system;
  out.owners.assign(static_cast<std::size_t>(owners), {});
  const std::int64_t total = system.totalMass();
  std::int64_t at = 0;
  std::size_t owner = 0;
  for (const auto& owned : system.owners) {
    for (const auto& sample : owned) {
      while (at >= shareBegin(total, owners, static_cast<std::int64_t>(owner)) +
                       shareSize(total, owners, static_cast<std::int64_t>(owner))) {
        ++owner;
      }
      out.owners[owner].push_back(sample);
      ++at;
    }
  }
  return out;
}

}  // namespace kfield
