#include "kfield/io/Spill.hpp"

#include "Format.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <optional>
#include <string>

namespace kfield::io {

namespace {

class SpillFile final : public diff::CarryStore {
 public:
  explicit SpillFile(std::string folder) : folder_(std::move(folder)) {}
  ~SpillFile() override { close(); }

  void open(std::int64_t words) override {
    close();
    static std::atomic<int> serial{0};
    // Host, process and serial: every process of an MPI job (each rank spills its own part)
    // writes its own file, also in a folder that several nodes share.
    char host[256] = {};
    if (gethostname(host, sizeof(host) - 1) != 0) host[0] = '\0';
    path_ = folder_ + "/kfield-spill-" + (host[0] ? std::string(host) + "-" : std::string()) +
            std::to_string(getpid()) + "-" + std::to_string(serial++) + ".h5";
    file_.emplace(impl::File::overwrite(path_));
    impl::writeHeader(*file_, "window-spill");
    // Scratch read back by this process: contiguous, no checksum, nothing compressed.
    impl::Storage plain;
    plain.fletcher32 = false;
    plain.contiguous = true;
    data_.emplace(file_->create<double>("checkpoints", {std::uint64_t(words)}, plain));
  }

  void write(std::int64_t offset, const double* values, std::int64_t count) override {
    data_->writeRows(values, std::uint64_t(offset), std::uint64_t(count));
  }

  void read(std::int64_t offset, double* values, std::int64_t count) override {
    data_->read(values, std::uint64_t(offset), std::uint64_t(count));
  }

  void close() override {
    if (!file_) return;
    data_.reset();
    file_.reset();
    std::remove(path_.c_str());
  }

 private:
  std::string folder_, path_;
  std::optional<impl::File> file_;
  std::optional<impl::Dataset> data_;
};

}  // namespace

std::shared_ptr<diff::CarryStore> spillStore(const std::string& folder) {
  return std::make_shared<SpillFile>(folder);
}

}  // namespace kfield::io
