#include "kfield/learn/Identity.hpp"

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

Digest ruleIdentity(const DataParallelSystem& system) {
  return digestOf([&](const ByteSink& sink) { writeRuleIdentity(system, sink); });
}

std::vector<std::uint64_t> sampleHashes(const DataParallelSystem& system) {
  std::vector<std::uint64_t> hashes;
  hashes.reserve(static_cast<std::size_t>(system.totalMass()));
  for (const auto& owned : system.owners) {
    for (const auto& sample : owned) {
      std::uint64_t h = mix64(sample.size(), 0);
      for (Word w : sample) h = mix64(h, w);
      hashes.push_back(h);
    }
  }
  return hashes;
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
