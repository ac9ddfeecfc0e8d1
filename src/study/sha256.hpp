#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the fingerprint of the model and study
// files in a results file's provenance, and what --resume compares to refuse a study file that changed.
#include <string>

namespace myriad::study {

std::string sha256_hex(const std::string& bytes);

}  // namespace myriad::study
