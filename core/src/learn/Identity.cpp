#include "kfield/learn/Identity.hpp"

#include "Sha256.hpp"
#include "kfield/Random.hpp"
#include "kfield/impl/Bits.hpp"
#include "kfield/impl/Errors.hpp"

#include <openssl/evp.h>

#include <cstring>
#include <memory>

namespace kfield {

namespace {

void putWord(const ByteSink& sink, std::uint64_t w) {
  unsigned char b[8];
  impl::storeWord(w, b);
  sink(b, 8);
}

// A length word, then the words, buffered so the sink sees large pieces.
void putWords(const ByteSink& sink, const std::vector<Word>& words) {
  putWord(sink, words.size());
  unsigned char buf[8 * 512];
  std::size_t used = 0;
  for (Word w : words) {
    impl::storeWord(w, buf + used);
    used += 8;
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
    impl::runtimeError("kfield::sha256", "OpenSSL could not start a SHA-256 digest");
  }
  write([&](const unsigned char* d, std::size_t n) { EVP_DigestUpdate(ctx.get(), d, n); });
  Digest digest{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1 || size != digest.size()) {
    impl::runtimeError("kfield::sha256", "OpenSSL could not finish a SHA-256 digest");
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
  if (!system.contributionIdentity.empty()) {  // absent for pointwise contributions: their
    putText(sink, "contribution");             // identities are what they always were
    putWord(sink, system.contributionIdentity.size());
    sink(system.contributionIdentity.data(), system.contributionIdentity.size());
  }
}

namespace {

constexpr const char* kSystemPrefix = "alpha-data-parallel-v1;";
constexpr const char* kLearnerPrefix = "alpha-data-parallel-learner-v1;";

// One owner's part of the system identity (its count, then its samples) or of the learner
// identity (its samples).
void writeOwner(const std::vector<std::vector<Word>>& owned, bool counted, const ByteSink& sink) {
  if (counted) putWord(sink, owned.size());
  for (const auto& sample : owned) putWords(sink, sample);
}

std::uint64_t sampleHash(const std::vector<Word>& sample) {
  std::uint64_t h = mix64(sample.size(), 0);
  for (Word w : sample) h = mix64(h, w);
  return h;
}

void requireWhole(const DataParallelSystem& system, const char* who) {
  if (system.heldInPart()) {
    impl::invalidArgument(who,
                          "the system is held in part (each rank holds its own share): "
                          "its identity is computed across the ranks (identityAcrossRanks)");
  }
}

}  // namespace

void writeSystemIdentity(const DataParallelSystem& system, const ByteSink& sink) {
  requireWhole(system, "kfield::writeSystemIdentity");
  putText(sink, kSystemPrefix);
  writeRuleIdentity(system, sink);
  for (const auto& owned : system.owners) writeOwner(owned, true, sink);
}

void writeLearnerIdentity(const DataParallelSystem& system, const ByteSink& sink) {
  requireWhole(system, "kfield::writeLearnerIdentity");
  putText(sink, kLearnerPrefix);
  writeRuleIdentity(system, sink);
  putWord(sink, static_cast<std::uint64_t>(system.totalMass()));
  for (const auto& owned : system.owners) writeOwner(owned, false, sink);
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

Digest ruleIdentity(const DataParallelSystem& system) {
  return digestOf([&](const ByteSink& sink) { writeRuleIdentity(system, sink); });
}

std::vector<std::uint64_t> sampleHashes(const DataParallelSystem& system) {
  requireWhole(system, "kfield::sampleHashes");
  std::vector<std::uint64_t> hashes;
  hashes.reserve(static_cast<std::size_t>(system.totalMass()));
  for (const auto& owned : system.owners) {
    for (const auto& sample : owned) hashes.push_back(sampleHash(sample));
  }
  return hashes;
}

SpreadIdentity identityAcrossRanks(const DataParallelSystem& system,
                                   const OwnerPlacement& placement) {
  constexpr const char* kWho = "kfield::identityAcrossRanks";
  const auto owners = static_cast<std::int64_t>(system.owners.size());
  if (!system.heldInPart()) {
    return {systemIdentity(system), learnerIdentity(system), sampleHashes(system)};
  }
  if (placement.ranks() > owners) {
    impl::invalidArgument(kWho, std::to_string(placement.ranks()) + " ranks but " +
                                    std::to_string(owners) + " owners");
  }
  // Every rank must hold the same rule and the same split, or the digests mean nothing.
  const Digest rule = ruleIdentity(system);
  impl::ByteWriter shape;
  for (unsigned char b : rule) shape.word(b);
  for (std::int64_t size : system.ownerSizes) shape.word(static_cast<std::uint64_t>(size));
  const auto shapes = placement.allgather(shape.bytes);
  for (std::size_t r = 1; r < shapes.size(); ++r) {
    if (shapes[r] != shapes[0]) {
      impl::invalidArgument(kWho, "rank " + std::to_string(r) +
                                      " holds another rule or another split of the samples "
                                      "than rank 0");
    }
  }
  const IndexRange replicas = placement.localReplicas(owners);
  const IndexRange mine = {placement.ownersOf(replicas.begin, owners).begin,
                           placement.ownersOf(replicas.end - 1, owners).end};
  for (std::int64_t o = mine.begin; o < mine.end; ++o) {
    const auto held = static_cast<std::int64_t>(system.owners[std::size_t(o)].size());
    if (held != system.ownerSize(std::size_t(o))) {
      impl::invalidArgument(
          kWho, "owner " + std::to_string(o) + " runs here but holds " + std::to_string(held) +
                    " of its " + std::to_string(system.ownerSize(std::size_t(o))) + " samples");
    }
  }

  // Both digests run through the ranks in order: each hashes its owners and passes them on.
  impl::Sha256 ofSystem, ofLearner;
  auto into = [](impl::Sha256& sha) {
    return ByteSink([&sha](const unsigned char* d, std::size_t n) { sha.update(d, n); });
  };
  if (placement.rank() == 0) {
    putText(into(ofSystem), kSystemPrefix);
    writeRuleIdentity(system, into(ofSystem));
    putText(into(ofLearner), kLearnerPrefix);
    writeRuleIdentity(system, into(ofLearner));
    putWord(into(ofLearner), static_cast<std::uint64_t>(system.totalMass()));
  }
  SpreadIdentity out;
  impl::ByteWriter myHashes;
  for (int r = 0; r < placement.ranks(); ++r) {
    std::vector<unsigned char> passed;
    if (r == placement.rank()) {
      for (std::int64_t o = mine.begin; o < mine.end; ++o) {
        const auto& owned = system.owners[std::size_t(o)];
        writeOwner(owned, true, into(ofSystem));
        writeOwner(owned, false, into(ofLearner));
        for (const auto& sample : owned) myHashes.word(sampleHash(sample));
      }
      passed = ofSystem.save();
      const auto second = ofLearner.save();
      passed.insert(passed.end(), second.begin(), second.end());
    }
    const std::vector<unsigned char> states = placement.allgather(passed)[std::size_t(r)];
    const auto half = states.begin() + static_cast<std::ptrdiff_t>(states.size() / 2);
    ofSystem = impl::Sha256::restore({states.begin(), half});
    ofLearner = impl::Sha256::restore({half, states.end()});
  }
  out.system = ofSystem.finish();
  out.learner = ofLearner.finish();
  out.sampleHashes.reserve(static_cast<std::size_t>(system.totalMass()));
  for (const auto& bytes : placement.allgather(myHashes.bytes)) {
    impl::ByteReader in(bytes, kWho);
    while (in.wordsLeft() > 0) out.sampleHashes.push_back(in.word());
  }
  return out;
}

std::string describe(const Digest& digest) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char b : digest) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

}  // namespace kfield
