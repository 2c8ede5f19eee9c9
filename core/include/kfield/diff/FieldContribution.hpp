// Training a field program's parameters with the data-parallel learner: each sample is one
// scenario (its stop round, its sensors, its target), its contribution the gradient of its
// squared-error loss through the rounds, by the windowed reverse. Rows are independent of how
// samples are split, so the learner keeps its owner, rank and thread invariance.
#ifndef KFIELD_DIFF_FIELDCONTRIBUTION_HPP
#define KFIELD_DIFF_FIELDCONTRIBUTION_HPP

#include "kfield/diff/Gradient.hpp"
#include "kfield/learn/DataParallelSystem.hpp"
#include "kfield/learn/Rules.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kfield::diff {

// A sample's words: its stop round (a whole number >= 0); each sensor's value on every device
// (sensors in the program's order, devices in order); the squared error's target on every
// device (of a tuple-valued program, component by component). Width
// 1 + (sensors + output width) x devices.
std::int64_t fieldSampleWidth(const TracedProgram& program, const Network& network);
// sensors[name]: one value per device, for every sensor the program reads.
std::vector<Word> fieldSample(const TracedProgram& program, const Network& network,
                              std::int64_t stop,
                              const std::map<std::string, std::vector<double>>& sensors,
                              const std::vector<double>& target);

// What names a field contribution in the learner's identities: the program (its graph,
// operations and constants), the network (size, description, a hash of its arrays), the loss.
std::vector<unsigned char> fieldContributionIdentity(const TracedProgram& program,
                                                     const Network& network);

// A system without samples: the program's parameters (k = its parameter width) starting at
// initialParameters, the update `rule` at `rate`, samples of fieldSampleWidth words.
DataParallelSystem fieldSystem(const TracedProgram& program, const Network& network,
                               const rules::UpdateRule& rule, double rate,
                               const std::vector<double>& initialParameters);

template <class ExecSpace = Kokkos::DefaultExecutionSpace>
class FieldContribution {
 public:
  static constexpr bool kRows = true;

  FieldContribution(TracedProgram program, Network network, GradientOptions options = {},
                    ExecSpace space = ExecSpace())
      : program_(std::move(program)),
        network_(std::move(network)),
        options_(options),
        space_(space) {}

  std::vector<unsigned char> identityBytes() const {
    return fieldContributionIdentity(program_, network_);
  }

  // The loss of each local sample at the parameters of the last rows() call, in sample order.
  const std::vector<double>& sampleLoss() const { return sampleLoss_; }

  // rows(j, :) = d(loss of sample j)/d(parameters), for the local samples (one per row).
  template <class SampleView, class RowView>
  void rows(const std::vector<double>& parameters, const SampleView& samples, const RowView& rows) {
    if (rows.extent(0) == 0) return;  // an owner (a rank) without samples
    if (!gradient_) load(samples);
    for (const ParameterInfo& p : program_.parameters) {
      gradient_->parameter(p.name, std::vector<double>(parameters.begin() + p.offset,
                                                       parameters.begin() + p.offset + p.width));
    }
    const GradientResult r = gradient_->run(stops_, options_);
    sampleLoss_ = r.sampleLoss;
    auto host = Kokkos::create_mirror_view(rows);
    for (std::size_t j = 0; j < r.sampleGradient.size(); ++j) {
      for (std::size_t c = 0; c < r.sampleGradient[j].size(); ++c)
        host(j, c) = r.sampleGradient[j][c];
    }
    Kokkos::deep_copy(rows, host);
  }

 private:
  static constexpr const char* kWho = "kfield::diff::FieldContribution";

  // The scenarios, once: the learner's samples never change.
  template <class SampleView>
  void load(const SampleView& samples) {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), samples);
    const auto n = static_cast<std::int64_t>(host.extent(0));
    const std::int64_t devices = network_.devices();
    if (static_cast<std::int64_t>(host.extent(1)) != fieldSampleWidth(program_, network_)) {
      kfield::impl::invalidArgument(kWho, "samples have " + std::to_string(host.extent(1)) +
                                              " words, the program's scenarios " +
                                              std::to_string(fieldSampleWidth(program_, network_)));
    }
    gradient_ = std::make_unique<BasicGradient<ExecSpace>>(program_, network_,
                                                           std::max<std::int64_t>(n, 1), space_);
    stops_.assign(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)), 0);
    const std::int64_t targets = program_.outputWidth * devices;
    HostPlane target("kfield::diff::field_target", targets, std::max<std::int64_t>(n, 1));
    for (std::int64_t j = 0; j < n; ++j) {
      const double stop = host(j, 0);
      if (!(stop >= 0.0) || stop != std::floor(stop) || stop > 9.0e15) {
        kfield::impl::invalidArgument(kWho, "sample " + std::to_string(j) + ": the stop round " +
                                                kfield::impl::numberText(stop) +
                                                " is not a whole number >= 0");
      }
      stops_[static_cast<std::size_t>(j)] = static_cast<std::int64_t>(stop);
      std::int64_t at = 1;
      for (const SensorInfo& sensor : program_.sensors) {
        auto set = gradient_->sensor(sensor.name);
        for (std::int64_t d = 0; d < devices; ++d) set.set(d, j, host(j, at++));
      }
      for (std::int64_t d = 0; d < targets; ++d) target(d, j) = host(j, at++);
    }
    gradient_->target(target);
  }

  TracedProgram program_;
  Network network_;
  GradientOptions options_;
  ExecSpace space_;
  std::unique_ptr<BasicGradient<ExecSpace>> gradient_;
  std::vector<std::int64_t> stops_;
  std::vector<double> sampleLoss_;
};

}  // namespace kfield::diff

#endif
