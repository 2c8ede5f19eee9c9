#include "Digest.hpp"

#include "Command.hpp"

#include <kfield/Bits.hpp>
#include <kfield/Sizes.hpp>
#include <kfield/learn/Identity.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

namespace kfield::cli {
namespace {

constexpr const char* kMagic = "kfield-bits-v1";

std::vector<unsigned char> bytesOf(const std::vector<std::uint64_t>& words) {
  std::vector<unsigned char> bytes;
  bytes.reserve(words.size() * 8);
  for (std::uint64_t w : words) {
    for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<unsigned char>(w >> (8 * b)));
  }
  return bytes;
}

}  // namespace

ResultBits ResultBits::ofField(const HostPlane& field, std::int64_t devices) {
  ResultBits r;
  r.rows = static_cast<std::int64_t>(field.extent(0));
  r.columns = static_cast<std::int64_t>(field.extent(1));
  r.rowName =
      r.rows == devices ? "device" : "row(component*" + std::to_string(devices) + "+device)";
  r.columnName = "sample";
  r.words.reserve(field.extent(0) * field.extent(1));
  for (std::size_t d = 0; d < field.extent(0); ++d) {
    for (std::size_t s = 0; s < field.extent(1); ++s)
      r.words.push_back(kfield::bitsOf(field(d, s)));
  }
  return r;
}

std::string ResultBits::digest() const { return describe(sha256(bytesOf(words))); }

void ResultBits::save(io::PartialFile& file) const {
  std::ostringstream header;
  header << kMagic << "\nrows " << rows << " " << rowName << "\ncolumns " << columns << " "
         << columnName << "\n\n";
  const std::string text = header.str();
  file.write(text.data(), text.size());
  const std::vector<unsigned char> bytes = bytesOf(words);
  file.write(bytes.data(), bytes.size());
  file.commit();
}

ResultBits ResultBits::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UserError("cannot open '" + path + "'");
  auto bad = [&](const std::string& why) { return UserError("'" + path + "': " + why); };
  std::string magic, rowsWord, columnsWord, blank;
  ResultBits r;
  if (!std::getline(in, magic) || magic != kMagic) throw bad("not a kfield bits file");
  std::string line;
  std::getline(in, line);
  std::istringstream rowsLine(line);
  std::getline(in, line);
  std::istringstream columnsLine(line);
  if (!(rowsLine >> rowsWord >> r.rows >> r.rowName) || rowsWord != "rows" ||
      !(columnsLine >> columnsWord >> r.columns >> r.columnName) || columnsWord != "columns" ||
      !std::getline(in, blank) || !blank.empty() || r.rows < 0 || r.columns < 0) {
    throw bad("its header is not 'rows R NAME', 'columns C NAME' and a blank line");
  }
  const std::streampos start = in.tellg();
  in.seekg(0, std::ios::end);
  const std::uint64_t have = static_cast<std::uint64_t>(in.tellg() - start);
  const std::uint64_t cells =
      kfield::sizes::product({std::uint64_t(r.rows), std::uint64_t(r.columns)});
  const std::uint64_t need = kfield::sizes::product({cells, 8});
  if (have != need) {  // also refuses a shape whose size saturates, before anything is allocated
    throw bad(std::to_string(r.rows) + " x " + std::to_string(r.columns) + " words need " +
              kfield::sizes::bytesText(need) + ", the file has " + std::to_string(have) + " bytes");
  }
  in.seekg(start);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(have));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(have));
  r.words.assign(static_cast<std::size_t>(cells), 0);
  for (std::size_t i = 0; i < r.words.size(); ++i) {
    for (int b = 0; b < 8; ++b)
      r.words[i] |= std::uint64_t(bytes[i * 8 + std::size_t(b)]) << (8 * b);
  }
  return r;
}

void addBitsOptions(CLI::App& command, BitsOutput& bits) {
  command.add_option("--bits", bits.path,
                     "Save the result's bits to this file (what kfield repro compares)");
  command.add_option("--flip-bit", bits.flip)->group("");  // tests of kfield repro only
}

void reportBits(ResultBits bits, const std::string& what, const BitsOutput& output) {
  if (!output.flip.empty()) {
    std::int64_t row = -1, column = -1;
    char colon = 0, extra = 0;
    std::istringstream in(output.flip);
    if (!(in >> row >> colon >> column) || colon != ':' || in >> extra || row < 0 ||
        row >= bits.rows || column < 0 || column >= bits.columns) {
      throw UserError("--flip-bit '" + output.flip + "' is not ROW:COLUMN of a " +
                      std::to_string(bits.rows) + " x " + std::to_string(bits.columns) + " result");
    }
    bits.words[static_cast<std::size_t>(row * bits.columns + column)] ^= 1u;
  }
  std::cout << what << " sha256: " << bits.digest() << "\n";
  if (output.file) bits.save(*output.file);
}

void claimBitsFile(BitsOutput& bits) {
  if (!bits.path.empty()) bits.file = std::make_shared<io::PartialFile>(bits.path);
}

}  // namespace kfield::cli
