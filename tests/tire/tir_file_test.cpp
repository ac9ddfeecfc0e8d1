// `.tir` files (src/tire/tir_file.hpp) and the Magic Formula's structure (src/tire/magic_formula.hpp): the shipped
// file reads whole; combined slip reduces to pure slip when the other slip is zero (the weighting functions are 1);
// bad files are refused with the file, the line and the reason. The curves against an independent implementation:
// tests/python/test_tire.py.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "tire/magic_formula.hpp"
#include "tire/tir_file.hpp"

namespace myriad {
namespace tir_file_test {

const std::string kShipped = std::string(MYRIAD_SOURCE_DIR) + "/models/tires/pacejka2006_205_60R15.tir";

std::string shipped_text() {
  std::ifstream in(kShipped);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(TirFile, TheShippedFileReadsWithItsPublishedNumbers) {
  const TirCoefficients p = read_tir_file(kShipped);
  EXPECT_EQ(p[kTirFnomin], 4000.0);
  EXPECT_EQ(p[kTirUnloadedRadius], 0.313);
  EXPECT_EQ(p[kTirPky1], -14.95);
  EXPECT_EQ(p[kTirQbz1], 8.964);
  EXPECT_EQ(p[kTirRby1], 6.461);
  EXPECT_EQ(p[kTirLmuy], 1.0);
}

TEST(MagicFormula, CombinedSlipIsPureSlipWhenTheOtherSlipIsZero) {
  const TirCoefficients p = read_tir_file(kShipped);
  for (double fz : {2000.0, 4000.0, 7000.0})
    for (double s : {-0.3, -0.05, 0.02, 0.2}) {
      EXPECT_NEAR(tire_forces(p.data(), s, 0.0, 0.01, fz).fx, pure_fx(p.data(), s, 0.01, fz), 1e-12 * fz);
      EXPECT_NEAR(tire_forces(p.data(), 0.0, s, 0.01, fz).fy, pure_fy(p.data(), s, 0.01, fz), 1e-12 * fz);
      // Without longitudinal slip the combined Mz is the pure one (this file has no arm s of Fx).
      EXPECT_EQ(tire_forces(p.data(), 0.0, s, 0.01, fz).mz, pure_mz(p.data(), s, 0.01, fz));
      // With it the equivalent slip angles grow and the trail falls: less aligning moment (4.E77-4.E78).
      EXPECT_LT(std::abs(tire_forces(p.data(), 0.1, s, 0.01, fz).mz), std::abs(pure_mz(p.data(), s, 0.01, fz)));
    }
  // Combined slip only takes force away from the pure curves here (no kappa-induced side force in this file).
  EXPECT_LT(std::abs(tire_forces(p.data(), 0.1, 0.1, 0.0, 4000).fx), std::abs(pure_fx(p.data(), 0.1, 0.0, 4000)));
  EXPECT_LT(std::abs(tire_forces(p.data(), 0.1, 0.1, 0.0, 4000).fy), std::abs(pure_fy(p.data(), 0.1, 0.0, 4000)));
}

// parse_tir of the shipped text with `pattern` replaced; the error's line and reason.
void expect_refused(const std::string& pattern, const std::string& replacement, int line, const std::string& reason) {
  const std::string text = std::regex_replace(shipped_text(), std::regex(pattern), replacement);
  try {
    parse_tir(text, "t.tir");
    ADD_FAILURE() << "accepted: " << pattern << " -> " << replacement;
  } catch (const TirFileError& e) {
    EXPECT_EQ(e.file(), "t.tir");
    if (line >= 0) EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(e.reason().find(reason), std::string::npos) << e.what();
  }
}

int line_of(const std::string& key) {
  std::istringstream in(shipped_text());
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.rfind(key + " ", 0) == 0) return n;
  return -1;
}

TEST(TirFile, BadFilesAreRefusedWithTheLineAndTheReason) {
  expect_refused("PKY1 [^\\n]*\\n", "", 0, "missing coefficient PKY1");
  expect_refused("QDZ1 ([^\\n]*)\\n", "QDZ1 = abc\n", line_of("QDZ1"), "QDZ1 = 'abc' is not a finite number");
  expect_refused("PCX1 ([^\\n]*)\\n", "PCX1 = 1.685\nPCX1 = 1.7\n", line_of("PCX1") + 1, "PCX1 is given twice");
  expect_refused("LENGTH [^\\n]*\\n", "LENGTH = 'mm'\n", line_of("LENGTH"), "only SI files");
  expect_refused("FNOMIN [^\\n]*\\n", "FNOMIN = 0\n", line_of("FNOMIN"), "FNOMIN must be positive");
  expect_refused("PDX1 [^\\n]*\\n", "PDX1 1.21\n", line_of("PDX1"), "expected KEY = value");
  EXPECT_THROW(read_tir_file("/nonexistent/x.tir"), TirFileError);
}

}  // namespace tir_file_test
}  // namespace myriad

namespace myriad {
namespace tir_file_test {

const std::string kFiala = std::string(MYRIAD_SOURCE_DIR) + "/models/tires/hmmwv_fiala.tir";

TEST(FialaFile, TheShippedFileReadsAndItsFormatIsNamed) {
  const std::string text = read_tir_text(kFiala);
  EXPECT_EQ(tir_property_format(text), "FIALA");
  EXPECT_EQ(tir_property_format(read_tir_text(kShipped)), "PAC2002");
  const FialaParameters p = parse_fiala_tir(text, "hmmwv_fiala.tir");
  EXPECT_EQ(p.c_slip, 193929.0);
  EXPECT_EQ(p.c_alpha, 50000.0);
  // Full slide (tan alpha >= 1, so S_s = 1 and U = UMIN, past the critical angle): Fy = -UMIN Fz and no moment.
  const TireForces slide = fiala_forces(p, 0.0, 0.9, 4000.0);
  EXPECT_NEAR(slide.fy, -(0.9835 - (0.9835 - 0.5568) * 1.0) * 4000.0, 1e-9);
  EXPECT_EQ(slide.mz, 0.0);
}

TEST(FialaFile, BadFialaFilesAreRefused) {
  const std::string text = read_tir_text(kFiala);
  const auto refused = [&](const std::string& pattern, const std::string& replacement, const std::string& reason) {
    try {
      parse_fiala_tir(std::regex_replace(text, std::regex(pattern), replacement), "f.tir");
      return ::testing::AssertionFailure() << "accepted " << replacement;
    } catch (const TirFileError& e) {
      if (e.reason().find(reason) == std::string::npos) return ::testing::AssertionFailure() << e.what();
      return ::testing::AssertionSuccess();
    }
  };
  EXPECT_TRUE(refused("UMIN [^\\n]*\\n", "UMIN = 1.2\n", "UMIN must not exceed UMAX"));
  EXPECT_TRUE(refused("CSLIP [^\\n]*\\n", "CSLIP = -5\n", "CSLIP must be positive"));
  EXPECT_TRUE(refused("WIDTH [^\\n]*\\n", "", "missing coefficient WIDTH"));
}

}  // namespace tir_file_test
}  // namespace myriad
