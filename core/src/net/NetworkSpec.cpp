// Networks named by a spec string, as `kfield run --network` takes them.
#include "kfield/net/NetworkSpec.hpp"

#include "BuildRows.hpp"

#include "kfield/impl/Printable.hpp"

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace kfield {

namespace {

constexpr const char* kWho = "kfield::Network::fromSpec";

[[noreturn]] void fail(const std::string& what) { throw std::invalid_argument(what); }

// f(), its errors naming the spec.
template <class F>
auto naming(const std::string& spec, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::invalid_argument& e) {
    impl::invalidArgument(kWho, "network '" + impl::printable(spec, 4096) + "': " + reason(e));
  }
}

}  // namespace

Network Network::fromSpec(const std::string& spec) { return NetworkSpec(spec).build(); }

NetworkSpec::NetworkSpec(std::string spec) : text_(std::move(spec)) {
  naming(text_, [&] {
    std::vector<std::string> parts;
    std::string item;
    std::istringstream in(text_);
    while (std::getline(in, item, ':')) parts.push_back(item);
    auto number = [&](const std::string& text, const char* what) {
      std::size_t used = 0;
      double value = 0;
      try {
        value = std::stod(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (text.empty() || used != text.size())
        fail(std::string(what) + " '" + impl::printable(text) + "' is not a number");
      return value;
    };
    auto integer = [&](const std::string& text, const char* what) {
      const double value = number(text, what);
      if (value != std::floor(value) || value < 0 || value > 9.0e15) {
        fail(std::string(what) + " '" + impl::printable(text) + "' is not a whole number >= 0");
      }
      return static_cast<std::int64_t>(value);
    };
    const std::string usage =
        " (expected grid:WxH[:4|:8], rgg:N:RADIUS[:SEED][:hilbert], edges:FILE or arcs:FILE)";
    if (parts.empty()) fail("empty" + usage);
    if (parts[0] == "grid" && (parts.size() == 2 || parts.size() == 3)) {
      const auto x = parts[1].find('x');
      if (x == std::string::npos) fail("size must be WxH" + usage);
      kind_ = Kind::Grid;
      neighborhood_ = parts.size() == 3 ? int(integer(parts[2], "neighborhood")) : 4;
      width_ = integer(parts[1].substr(0, x), "width");
      height_ = integer(parts[1].substr(x + 1), "height");
      return;
    }
    if (parts[0] == "rgg" && parts.size() >= 3 && parts.size() <= 5) {
      const bool hilbert = parts.back() == "hilbert";
      if (hilbert) parts.pop_back();
      if (parts.size() == 5 || parts.size() < 3) fail("not understood" + usage);
      kind_ = Kind::RandomGeometric;
      count_ = integer(parts[1], "device count");
      radius_ = number(parts[2], "radius");
      checkRadius(kWho, radius_);
      seed_ = parts.size() == 4 ? std::uint64_t(integer(parts[3], "seed")) : 1;
      order_ = hilbert ? DeviceOrder::Hilbert : DeviceOrder::Drawn;
      return;
    }
    if ((parts[0] == "edges" || parts[0] == "arcs") && parts.size() >= 2) {
      kind_ = parts[0] == "edges" ? Kind::Edges : Kind::Arcs;
      path_ = text_.substr(parts[0].size() + 1);  // the file name may itself hold ':'
      return;
    }
    fail("not understood" + usage);
  });
}

std::int64_t NetworkSpec::devices() const {
  return naming(text_, [&]() -> std::int64_t {
    if (kind_ == Kind::Grid) return checkGridShape(kWho, width_, height_, neighborhood_);
    if (kind_ == Kind::RandomGeometric) {
      checkDevices(kWho, count_);
      return count_;
    }
    return edgeListDevices(path_);
  });
}

std::string NetworkSpec::edgeListDescription(std::int64_t devices, std::int64_t edges) const {
  return kfield::edgeListDescription(path_, devices, edges, directed());
}

Network NetworkSpec::build() const {
  return naming(text_, [&] {
    switch (kind_) {
      case Kind::Grid: return Network::grid(width_, height_, neighborhood_);
      case Kind::RandomGeometric: return Network::randomGeometric(count_, radius_, seed_, order_);
      case Kind::Edges: return Network::fromEdgeList(path_);
      case Kind::Arcs: break;
    }
    return Network::fromEdgeList(path_, true);
  });
}

NetworkPart NetworkSpec::part(IndexRange owned) const {
  return naming(text_, [&] {
    if (kind_ == Kind::Grid) return NetworkPart::grid(width_, height_, neighborhood_, owned);
    if (kind_ == Kind::RandomGeometric)
      return NetworkPart::randomGeometric(count_, radius_, seed_, order_, owned);
    return NetworkPart::fromEdgeList(path_, directed(), owned);
  });
}

}  // namespace kfield
