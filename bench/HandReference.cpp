// The host reference of the field benchmarks: one sample at a time, scalar, plain vectors.
#include "HandRounds.hpp"

#include <algorithm>

namespace kfield::bench {

std::vector<double> handReference(HandProgram program, const Network& net, std::int64_t samples,
                                  std::int64_t rounds) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::int64_t n = net.devices();
  const auto& offsets = net.offsets();
  const auto& neighbors = net.neighbors();
  const std::vector<double> lengths = net.lengths();
  const bool nearest = program == HandProgram::NearestSource;
  std::vector<double> out(static_cast<std::size_t>((nearest ? 2 : 1) * n * samples));
  if (program == HandProgram::CollectWeighted) {
    const std::vector<std::int64_t> reverse = net.reverseEntries();
    const double radius = weightedRadius(net);
    for (std::int64_t s = 0; s < samples; ++s) {
      std::vector<double> dist(n, inf), sum(n, 0.0), part(neighbors.size(), 0.0);
      for (std::int64_t r = 1; r <= rounds; ++r) {
        const bool first = r == 1;
        std::vector<double> nextDist(n), nextSum(n), nextPart(part.size());
        for (std::int64_t i = 0; i < n; ++i) {  // the distance gradient
          double best = inf;
          for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
            const std::int64_t j = neighbors[k];
            if (j != i && dist[j] + lengths[k] < best) best = dist[j] + lengths[k];
          }
          nextDist[i] = i == sourceOf(s, net) ? 0.0 : best;
        }
        for (std::int64_t i = 0; i < n; ++i) {
          const double here = nextDist[i];
          double total = 0.0, own = 0.0, collected = 0.0;
          std::vector<double> weight;
          for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
            const std::int64_t j = neighbors[k];
            const double theirs = j != i ? dist[j] : first ? here : dist[i];
            const double nearer = theirs < inf && here < inf ? here - theirs : 0.0;
            const double reach = std::max(radius - lengths[k], 0.0);
            weight.push_back(std::max(reach * nearer, 0.0));
            if (j == i || !first) total = total + weight.back();
          }
          const double factor = total == 0.0 ? 1.0 : total;
          for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
            if (neighbors[k] == i) own = weight[k - offsets[i]] / factor;
          }
          for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
            const std::int64_t j = neighbors[k];
            nextPart[k] = j != i && !first ? weight[k - offsets[i]] / factor : own;
            if (j != i && !first) collected = collected + sum[j] * part[reverse[k]];
          }
          nextSum[i] = valueOf(i, s) + collected;
        }
        dist.swap(nextDist), sum.swap(nextSum), part.swap(nextPart);
      }
      for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i * samples + s)] = sum[i];
    }
    return out;
  }
  for (std::int64_t s = 0; s < samples && nearest; ++s) {  // lexicographic (distance, value)
    std::vector<double> dist(n, inf), carried(n);
    for (std::int64_t i = 0; i < n; ++i) carried[i] = valueOf(i, s);
    for (std::int64_t r = 0; r < rounds; ++r) {
      std::vector<double> nextDist(n), nextCarried(n);
      for (std::int64_t i = 0; i < n; ++i) {
        std::pair<double, double> best{inf, inf};
        for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
          const std::int64_t j = neighbors[k];
          if (j != i)
            best = std::min(best, std::pair<double, double>{dist[j] + lengths[k], carried[j]});
        }
        const bool source = i == sourceOf(s, net);
        nextDist[i] = source ? 0.0 : best.first;
        nextCarried[i] = source || best.first == inf ? valueOf(i, s) : best.second;
      }
      dist.swap(nextDist), carried.swap(nextCarried);
    }
    for (std::int64_t i = 0; i < n; ++i) {
      out[static_cast<std::size_t>(i * samples + s)] = dist[i];
      out[static_cast<std::size_t>((n + i) * samples + s)] = carried[i];
    }
  }
  for (std::int64_t s = 0; s < samples && !nearest; ++s) {
    std::vector<double> value(n, inf), parent(n, -1.0), collected(n, 0.0);
    for (std::int64_t r = 0; r < rounds; ++r) {
      std::vector<double> nextValue(n), nextParent(n), nextCollected(n);
      for (std::int64_t i = 0; i < n; ++i) {
        double best = inf, parentId = inf, sum = 0.0;
        for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
          const std::int64_t j = neighbors[k];
          const double v = program == HandProgram::Distance ? value[j] + lengths[k] : value[j];
          if (j != i && v < best) best = v;
        }
        for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
          const std::int64_t j = neighbors[k];
          if (j == i) continue;
          if (value[j] == best) parentId = std::min(parentId, double(j));
          sum += parent[j] == double(i) ? collected[j] : 0.0;
        }
        const bool source = i == sourceOf(s, net);
        const double here = source ? 0.0 : program == HandProgram::Distance ? best : best + 1.0;
        nextValue[i] = here;
        nextParent[i] = here == 0.0 || best == inf ? -1.0 : parentId;
        nextCollected[i] = 1.0 + sum;
      }
      value.swap(nextValue), parent.swap(nextParent), collected.swap(nextCollected);
    }
    const std::vector<double>& result = program == HandProgram::Collect ? collected : value;
    for (std::int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i * samples + s)] = result[i];
  }
  return out;
}

}  // namespace kfield::bench
