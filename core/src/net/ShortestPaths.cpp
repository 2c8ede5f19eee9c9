#include "kfield/net/ShortestPaths.hpp"

#include "kfield/impl/Errors.hpp"
#include "kfield/impl/PortableMath.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>

namespace kfield {

std::int64_t ShortestPaths::roundsToSettle() const {
  std::int64_t most = 0;
  for (const std::int64_t e : edges) most = std::max(most, e);
  return most + 1;
}

namespace {
void requireMask(const char* who, const Network& network, const std::vector<char>& blocked) {
  if (!blocked.empty() && std::int64_t(blocked.size()) != network.devices()) {
    impl::invalidArgument(who, "the blocked mask has " + std::to_string(blocked.size()) +
                                   " entries, the network " + std::to_string(network.devices()) +
                                   " devices");
  }
}
bool isBlocked(const std::vector<char>& blocked, std::int64_t d) {
  return !blocked.empty() && blocked[std::size_t(d)] != 0;
}
}  // namespace

ShortestPaths shortestPaths(const Network& network, const std::vector<std::int64_t>& sources,
                            const std::vector<char>& blocked) {
  const char* who = "kfield::shortestPaths";
  if (!network.hasLengths())
    impl::invalidArgument(who, "network '" + network.description() + "' has no edge lengths");
  requireMask(who, network, blocked);
  const std::int64_t n = network.devices();
  const std::vector<double> lengths = network.lengths();
  const auto& offsets = network.offsets();
  const auto& neighbors = network.neighbors();
  ShortestPaths out;
  out.distance.assign(std::size_t(n), impl::math::infinity());
  out.edges.assign(std::size_t(n), -1);
  // (distance, edges, device): ties broken by fewer edges, then by id.
  using Item = std::tuple<double, std::int64_t, std::int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  for (const std::int64_t s : sources) {
    if (s < 0 || s >= n)
      impl::invalidArgument(who, "source " + std::to_string(s) + " is not a device of '" +
                                     network.description() + "'");
    if (isBlocked(blocked, s))
      impl::invalidArgument(who, "source " + std::to_string(s) + " is blocked");
    out.distance[std::size_t(s)] = 0.0;
    out.edges[std::size_t(s)] = 0;
    queue.emplace(0.0, 0, s);
  }
  std::vector<char> done(std::size_t(n), 0);
  while (!queue.empty()) {
    const auto [d, e, u] = queue.top();
    queue.pop();
    if (done[std::size_t(u)]) continue;
    done[std::size_t(u)] = 1;
    // Device v hears u: in an undirected network u is in v's row and v in u's.
    for (std::int64_t k = offsets[std::size_t(u)]; k < offsets[std::size_t(u) + 1]; ++k) {
      const std::int64_t v = neighbors[std::size_t(k)];
      if (v == u || done[std::size_t(v)] || isBlocked(blocked, v)) continue;
      const double through = d + lengths[std::size_t(k)];
      double& best = out.distance[std::size_t(v)];
      std::int64_t& edges = out.edges[std::size_t(v)];
      if (through < best || (through == best && e + 1 < edges)) {
        best = through;
        edges = e + 1;
        queue.emplace(through, e + 1, v);
      }
    }
  }
  return out;
}

std::vector<std::int64_t> components(const Network& network, std::int64_t* count,
                                     const std::vector<char>& blocked) {
  requireMask("kfield::components", network, blocked);
  const std::int64_t n = network.devices();
  const auto& offsets = network.offsets();
  const auto& neighbors = network.neighbors();
  std::vector<std::int64_t> of(std::size_t(n), -1);
  std::int64_t next = 0;
  std::vector<std::int64_t> stack;
  for (std::int64_t d = 0; d < n; ++d) {
    if (of[std::size_t(d)] >= 0 || isBlocked(blocked, d)) continue;
    of[std::size_t(d)] = next;
    stack.push_back(d);
    while (!stack.empty()) {
      const std::int64_t u = stack.back();
      stack.pop_back();
      for (std::int64_t k = offsets[std::size_t(u)]; k < offsets[std::size_t(u) + 1]; ++k) {
        const std::int64_t v = neighbors[std::size_t(k)];
        if (of[std::size_t(v)] < 0 && !isBlocked(blocked, v)) {
          of[std::size_t(v)] = next;
          stack.push_back(v);
        }
      }
    }
    ++next;
  }
  if (count) *count = next;
  return of;
}

}  // namespace kfield
