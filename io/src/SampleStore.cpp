#include "kfield/io/SampleStore.hpp"

#include "Format.hpp"

#include "kfield/impl/Errors.hpp"
#include "kfield/learn/Partition.hpp"

namespace kfield::io {

namespace {

constexpr const char* kKind = "sample-store";

// The saved split: offsets[o] is where owner o's samples begin; offsets.back() the count.
std::vector<std::int64_t> readOffsets(const impl::Group& g, std::int64_t samples) {
  const impl::Dataset d = g.dataset("owner_offsets");
  if (d.dims().size() != 1 || d.dims()[0] < 2) {
    d.require(impl::Type::Int64, {std::max<std::uint64_t>(d.elements(), 2)});
  }
  d.require(impl::Type::Int64, d.dims());
  d.requireFits(sizeof(std::int64_t));
  const auto offsets = d.readAll<std::int64_t>();
  for (std::size_t o = 0; o + 1 < offsets.size(); ++o) {
    if (offsets[o] > offsets[o + 1]) {
      g.fail("owner_offsets decrease: owner " + std::to_string(o) + " begins at " +
             std::to_string(offsets[o]) + ", owner " + std::to_string(o + 1) + " at " +
             std::to_string(offsets[o + 1]));
    }
  }
  if (offsets.front() != 0 || offsets.back() != samples) {
    g.fail("owner_offsets run from " + std::to_string(offsets.front()) + " to " +
           std::to_string(offsets.back()) + ", not from 0 to the " + std::to_string(samples) +
           " samples");
  }
  return offsets;
}

}  // namespace

void saveSamples(const std::string& path, const DataParallelSystem& system) {
  constexpr const char* kWho = "kfield::io::saveSamples";
  if (system.heldInPart()) {
    kfield::impl::invalidArgument(kWho, path +
                                            ": the system is held in part: save the samples "
                                            "from a process that holds them all");
  }
  const std::int64_t s = system.sampleWidth;
  const std::int64_t n = system.totalMass();
  std::vector<std::int64_t> offsets{0};
  for (const auto& owned : system.owners) {
    for (const auto& sample : owned) {
      if (static_cast<std::int64_t>(sample.size()) != s) {
        kfield::impl::invalidArgument(kWho, path + ": a sample has " +
                                                std::to_string(sample.size()) +
                                                " words, the sample width is " + std::to_string(s));
      }
    }
    offsets.push_back(offsets.back() + static_cast<std::int64_t>(owned.size()));
  }
  impl::writeAtomically(path, 1, [&](impl::File& file) {
    impl::writeHeader(file, kKind);
    const impl::Group g = file.createGroup("samples");
    g.setAttribute("samples", n);
    g.setAttribute("sample_width", s);
    g.setAttribute("owners", static_cast<std::int64_t>(system.owners.size()));
    g.write("owner_offsets", {std::uint64_t(offsets.size())}, offsets.data());
    const impl::Dataset values = g.create<double>("values", {std::uint64_t(n), std::uint64_t(s)});
    if (n == 0 || s == 0) return;
    // Written a piece of whole chunks at a time, so no second copy of the samples is made.
    const std::uint64_t rows = std::max<std::uint64_t>(1, (std::uint64_t(1) << 20) / s);
    std::vector<Word> piece;
    std::uint64_t first = 0;
    for (const auto& owned : system.owners) {
      for (const auto& sample : owned) {
        piece.insert(piece.end(), sample.begin(), sample.end());
        if (piece.size() == rows * std::uint64_t(s)) {
          values.writeRaw(piece.data(), impl::Type::Float64, first, rows);
          first += rows;
          piece.clear();
        }
      }
    }
    if (!piece.empty()) {
      values.writeRaw(piece.data(), impl::Type::Float64, first, piece.size() / std::uint64_t(s));
    }
  });
}

DataParallelSystem loadSamples(const std::string& path, DataParallelSystem rule,
                               std::int64_t owners, const OwnerPlacement& placement) {
  constexpr const char* kWho = "kfield::io::loadSamples";
  if (owners < 0) {
    kfield::impl::invalidArgument(kWho,
                                  path + ": owners = " + std::to_string(owners) + " is negative");
  }
  const impl::File file = impl::openKind(path, kKind);
  const impl::Group g = file.group("samples");
  const std::int64_t n = g.intAttribute("samples");
  const std::int64_t s = g.intAttribute("sample_width");
  if (n < 0 || s < 0) {
    g.fail("samples = " + std::to_string(n) + ", sample_width = " + std::to_string(s) +
           ": neither may be negative");
  }
  if (s != rule.sampleWidth) {
    g.fail("its samples have width " + std::to_string(s) + ", the system's sample width is " +
           std::to_string(rule.sampleWidth));
  }
  const impl::Dataset values = g.dataset("values");
  values.require(impl::Type::Float64, {std::uint64_t(n), std::uint64_t(s)});

  std::vector<std::int64_t> begin;  // where each owner's share begins, then the count
  if (owners > n) {                 // checked before the shares' table is allocated
    g.fail("owners = " + std::to_string(owners) + " is more than its " + std::to_string(n) +
           " samples: every owner needs one");
  }
  if (owners == 0) {
    begin = readOffsets(g, n);
    owners = static_cast<std::int64_t>(begin.size()) - 1;
  } else {
    for (std::int64_t o = 0; o <= owners; ++o) begin.push_back(shareBegin(n, owners, o));
  }
  if (placement.ranks() > owners) {
    kfield::impl::invalidArgument(kWho, path + ": " + std::to_string(placement.ranks()) +
                                            " ranks but " + std::to_string(owners) +
                                            " owners: every rank needs at least one owner");
  }
  const IndexRange replicas = placement.localReplicas(owners);
  const IndexRange mine = {placement.ownersOf(replicas.begin, owners).begin,
                           placement.ownersOf(replicas.end - 1, owners).end};

  rule.owners.assign(static_cast<std::size_t>(owners), {});
  rule.ownerSizes.clear();
  if (placement.ranks() > 1) {
    for (std::int64_t o = 0; o < owners; ++o) rule.ownerSizes.push_back(begin[o + 1] - begin[o]);
  }
  // Each owner's rows in one hyperslab read, checked against memory before allocation (this
  // rank's share whole, as it is held).
  values.requireFits(sizeof(Word),
                     std::uint64_t(begin[std::size_t(mine.end)] - begin[std::size_t(mine.begin)]));
  std::vector<Word> words;
  for (std::int64_t o = mine.begin; o < mine.end; ++o) {
    const std::int64_t first = begin[std::size_t(o)], rows = begin[std::size_t(o) + 1] - first;
    words.resize(static_cast<std::size_t>(rows * s));
    if (!words.empty()) values.readRaw(words.data(), impl::Type::Float64, first, rows);
    auto& owned = rule.owners[std::size_t(o)];
    owned.reserve(static_cast<std::size_t>(rows));
    for (std::int64_t j = 0; j < rows; ++j) {
      owned.emplace_back(words.begin() + j * s, words.begin() + (j + 1) * s);
    }
  }
  return rule;
}

}  // namespace kfield::io
