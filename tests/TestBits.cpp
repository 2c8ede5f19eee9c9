// The one byte format kfield writes (64-bit words, little-endian on every machine) and the
// bit-exact moves between binary64 values and words. (impl/Bits.hpp: internal, tested here
// because identities and everything owners exchange depend on it.)
#include <kfield/impl/Bits.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace kfield::test {
namespace {

std::string runtimeErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Bits, ValuesAndWordsRoundTripBitForBit) {
  for (double v : {0.0, -0.0, 1.0, -2.5, 1e-310, std::numeric_limits<double>::infinity()}) {
    EXPECT_EQ(impl::bitsOf(impl::doubleOf(impl::bitsOf(v))), impl::bitsOf(v));
  }
  EXPECT_EQ(impl::bitsOf(-0.0), 0x8000000000000000ull);
  EXPECT_EQ(impl::bitsOf(1.0), 0x3FF0000000000000ull);
  const std::uint64_t nan = 0x7FF8000000000123ull;  // a payload survives
  EXPECT_EQ(impl::bitsOf(impl::doubleOf(nan)), nan);
}

TEST(Bits, WordsAreLittleEndian) {
  impl::ByteWriter out;
  out.word(0x0102030405060708ull);
  out.value(1.0);
  EXPECT_EQ(out.bytes, (std::vector<unsigned char>{8, 7, 6, 5, 4, 3, 2, 1,  //
                                                   0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
  impl::ByteReader in(out.bytes, "test");
  EXPECT_EQ(in.word(), 0x0102030405060708ull);
  EXPECT_EQ(in.wordsLeft(), 1u);
  EXPECT_EQ(in.value(), 1.0);
  EXPECT_NO_THROW(in.requireEnd());
}

TEST(Bits, ShortAndLongInputsAreNamed) {
  const std::vector<unsigned char> five{1, 2, 3, 4, 5};
  EXPECT_EQ(runtimeErrorOf([&] { impl::ByteReader(five, "kfield::Thing: partials").word(); }),
            "kfield::Thing: partials: the bytes end before a word (truncated)");
  const std::vector<unsigned char> nine(9, 0);
  impl::ByteReader in(nine, "kfield::Thing: hashes");
  in.word();
  EXPECT_EQ(runtimeErrorOf([&] { in.requireEnd(); }),
            "kfield::Thing: hashes: 1 bytes after the last word");
}

}  // namespace
}  // namespace kfield::test
