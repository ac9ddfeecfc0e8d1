// The provenance attributes. Floating-point contraction: the host code is compiled without -ffp-contract=fast
// flags of its own; whether the target even has fused multiply-add instructions (__FMA__) is recorded, since
// without them no contraction can change a result. CUDA builds say whether nvcc may contract (MYRIAD_CUDA_FMAD, on by
// default) in MYRIAD_CUDA_BUILD.
#include "study/provenance.hpp"

#include <ctime>
#include <fstream>
#include <thread>

#include "myriad_git_commit.hpp"
#include "study/sha256.hpp"

namespace myriad::study {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

}  // namespace

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

Provenance study_provenance(const StudySpec& spec, const std::string& model_text) {
  Provenance p;
  auto& t = p.text;
  t.emplace_back("myriad_version", MYRIAD_VERSION_STRING);
  t.emplace_back("git_commit", MYRIAD_GIT_COMMIT);
  t.emplace_back("compiler", MYRIAD_BUILD_COMPILER);
  t.emplace_back("build_flags", MYRIAD_BUILD_FLAGS);
  t.emplace_back("cuda_build", MYRIAD_CUDA_BUILD);
#ifdef __FMA__
  t.emplace_back("fp_contraction", "host: compiler default, FMA instructions available (__FMA__)");
#else
  t.emplace_back("fp_contraction", "host: none possible (the target has no FMA instructions: no __FMA__)");
#endif
  t.emplace_back("cpu_model", cpu_model());
  t.emplace_back("hardware_threads", std::to_string(std::thread::hardware_concurrency()));
  t.emplace_back("study_file", spec.file);
  t.emplace_back("study_text", spec.text);
  t.emplace_back("study_sha256", sha256_hex(spec.text));
  t.emplace_back("model_file", spec.model);
  t.emplace_back("model_text", model_text);
  t.emplace_back("model_sha256", sha256_hex(model_text));
  t.emplace_back("sampler", sampler_name(spec.sampler.kind));
  t.emplace_back("backend_requested", spec.run.backend);
  if (spec.sampler.kind == SamplerKind::table) t.emplace_back("table_file", spec.sampler.table);
  t.emplace_back("seed", std::to_string(spec.sampler.seed));  // as text: a 64-bit seed does not fit a double
  p.numbers.emplace_back("samples", static_cast<double>(spec.sampler.samples));
  p.numbers.emplace_back("scramble", spec.sampler.scramble ? 1.0 : 0.0);
  t.emplace_back("start_time", utc_now());
  return p;
}

}  // namespace myriad::study
