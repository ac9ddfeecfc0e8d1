// The compiled models written as C++ by `myriad codegen` (model/compiled_model_source.hpp) for the CUDA
// kernels compiled on one model (kernels/model_kernels.cu, generated/model_kernels.hpp): the committed
// headers are what the model files compile to today, and the step loops reading the model as such a constant
// (model_of, dynamics/model_class.hpp) give the results of the code that reads it from memory, bit for bit,
// on the CPU (the kernels' twin; the device comparison is tests/gpu/cuda_backend_test.cpp's).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends/cuda_runner.hpp"
#include "ensemble/simulate_instance.hpp"
#include "generated/quarter_car.hpp"
#include "generated/stiff_double_pendulum.hpp"
#include "model/compiled_model_source.hpp"
#include "support/run_model.hpp"

namespace myriad {
namespace generated_models_test {

using namespace testing;

// The models as host constants, as model_kernels.cu has them on the device.
struct QuarterCar {
  using model_class =
      ModelClass<joint_codes_of(generated::quarter_car()), force_codes_of(generated::quarter_car())>;
  static const CompiledModel& get() {
    static constexpr CompiledModel model = generated::quarter_car();
    return model;
  }
};

struct StiffDoublePendulum {
  using model_class = ModelClass<joint_codes_of(generated::stiff_double_pendulum()),
                                 force_codes_of(generated::stiff_double_pendulum())>;
  static const CompiledModel& get() {
    static constexpr CompiledModel model = generated::stiff_double_pendulum();
    return model;
  }
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Each committed header is exactly what `myriad codegen` writes for its model file today, and its constant
// equals the compiled model byte for byte (what model_kernel_for compares): a model file changed without
// regenerating fails here, not on a device.
TEST(GeneratedModels, TheCommittedHeadersAreWhatTheModelFilesCompileTo) {
  struct Case {
    const char* name;
    const CompiledModel& constant;
  };
  for (const Case& c :
       {Case{"quarter_car", QuarterCar::get()}, Case{"stiff_double_pendulum", StiffDoublePendulum::get()}}) {
    SCOPED_TRACE(c.name);
    const std::string file = std::string("models/") + c.name + ".json";
    const auto compiled = compile(load_model_file(std::string(MYRIAD_SOURCE_DIR) + "/" + file));
    EXPECT_EQ(compiled_model_source(*compiled, c.name, file),
              read_text(std::string(MYRIAD_SOURCE_DIR) + "/src/generated/" + c.name + ".hpp"))
        << "regenerate: myriad codegen " << file << " --name " << c.name << " --origin " << file
        << " --out src/generated/" << c.name << ".hpp";
    EXPECT_EQ(std::memcmp(compiled.get(), &c.constant, sizeof(CompiledModel)), 0);
  }
}

// The source lists every field a model sets: a model with loops, drivers, KPIs, time-function inputs and
// tables (the field kinds a tree model leaves at zero) is written with each of its sections, and bad names
// are refused.
TEST(GeneratedModels, TheSourceListsEverySectionAndRefusesANameThatIsNoIdentifier) {
  const auto loops = compile(load_model_file(model_path("loops/four_bar.json")));
  const std::string source = compiled_model_source(*loops, "four_bar", "models/loops/four_bar.json");
  for (const char* field : {"m.constraints.m = ", "m.constraints.loops[0].type",
                            "m.constraints.slot_column[0]", "m.joints[2].parent = ", "m.outputs[0]."})
    EXPECT_NE(source.find(field), std::string::npos) << field;
  // Every double is written to the last bit (hexadecimal), so the constant equals the model byte for byte.
  // The road quarter car has KPIs (a weighted RMS with a scale); its source writes that section too.
  const auto road = compile(load_model_file(model_path("quarter_car_road.json")));
  ASSERT_GT(road->n_kpis, 0);
  const std::string road_source = compiled_model_source(*road, "quarter_car_road", "models/quarter_car_road.json");
  EXPECT_NE(road_source.find("m.n_kpis = "), std::string::npos);
  EXPECT_NE(road_source.find("m.kpis[0]."), std::string::npos);
  EXPECT_NE(road_source.find(" = 0x"), std::string::npos) << "doubles are written as hexadecimal floats";
  for (const char* bad : {"", "1car", "quarter-car", "a b", "x;y"})
    EXPECT_THROW(compiled_model_source(*loops, bad, "x"), std::invalid_argument) << bad;
}

// The host picks a model's kernel only for its method and only for a model equal to its constant; parameters
// (per-instance constants) do not matter, a different topology does.
TEST(GeneratedModels, TheCudaPlanPicksAModelsKernelForItsModelAndMethodOnly) {
  const Model quarter_car = load_model_file(model_path("quarter_car.json"));
  const auto compiled = compile(quarter_car);
  EXPECT_EQ(plan_cuda_run(*compiled, Method::dopri5, {}).model_kernel, ModelKernel::quarter_car_dopri5);
  EXPECT_EQ(plan_cuda_run(*compiled, Method::rn4, {}).model_kernel, ModelKernel::none);
  CudaRunOptions without_model, generic;
  without_model.kernel = CudaRunOptions::Kernel::without_model;
  generic.kernel = CudaRunOptions::Kernel::generic;
  const CudaRunPlan class_plan = plan_cuda_run(*compiled, Method::dopri5, without_model);
  EXPECT_EQ(class_plan.model_kernel, ModelKernel::none);
  EXPECT_TRUE(class_plan.specialized);
  EXPECT_TRUE(class_plan.axis_joints);
  EXPECT_EQ(plan_cuda_run(*compiled, Method::dopri5, generic).model_kernel, ModelKernel::none);
  std::vector<double> values = default_parameter_values(quarter_car);
  for (double& value : values) value *= 1.5;
  EXPECT_EQ(model_kernel_for(*compile(apply_parameters(quarter_car, values)), Method::dopri5),
            ModelKernel::quarter_car_dopri5);
  const auto pendulum = compile(load_model_file(model_path("stiff_double_pendulum.json")));
  EXPECT_EQ(model_kernel_for(*pendulum, Method::rn4), ModelKernel::stiff_double_pendulum_rn4);
  EXPECT_EQ(model_kernel_for(*pendulum, Method::dopri5), ModelKernel::none);
  for (const char* other : {"quarter_car_road.json", "stiff_quarter_car.json", "double_pendulum_002.json"}) {
    const auto model = compile(load_model_file(model_path(other)));
    EXPECT_EQ(model_kernel_for(*model, Method::dopri5), ModelKernel::none) << other;
    EXPECT_EQ(model_kernel_for(*model, Method::rn4), ModelKernel::none) << other;
  }
}

// Runs every instance of `e` with the step loops of `method` on tree models over constants of type K, the
// model given as `given`; outputs instance-major, stats and statuses appended.
template <Method M, class K>
void run_instances(const CompiledModel& given, const Ensemble& e, const RunSpec& spec,
                   const std::vector<double>& times, std::vector<double>& outputs,
                   std::vector<IntegratorStats>& stats, std::vector<InstanceStatus>& status) {
  const CompiledModel& model = model_of<K>(given);
  std::vector<double> scratch(instance_scratch_layout(model, spec.method).bytes / sizeof(double) + 1);
  std::vector<double> q(static_cast<size_t>(model.nq) + 1), v(static_cast<size_t>(model.nv) + 1),
      constants(static_cast<size_t>(model.n_constants) + 1);
  const size_t values = times.size() * static_cast<size_t>(model.n_outputs);
  outputs.assign(values * static_cast<size_t>(e.n_instances), 0.0);
  for (int i = 0; i < e.n_instances; ++i) {
    e.gather_initial_state(i, q.data(), v.data());
    e.gather_constants(i, constants.data());
    std::fill(scratch.begin(), scratch.end(), 0.0);
    begin_instance(scratch.data());
    IntegratorStats s;
    const K k{constants.data()};
    advance_instance<TreeStepLoops<M>>(given, k, q.data(), v.data(), spec, times.data(),
                                       static_cast<int>(times.size()), scratch.data(),
                                       outputs.data() + values * static_cast<size_t>(i), s, -1);
    stats.push_back(s);
    status.push_back(instance_progress(scratch.data()).status);
  }
}

// The code of a kernel compiled for one model, on the CPU: over constants naming the model (ModelConstants),
// the step loops read the model constant and not the one they are given, and give the outputs, work counters
// and statuses of the code reading the compiled model from memory, bit for bit, over 24 instances whose
// parameters differ. To show the constant is what is read, the model code is given a zeroed CompiledModel.
template <Method M, class Constant>
void expect_model_code_reproduces_the_generic_run(const char* file, const RunSpec& spec, double t_end) {
  SCOPED_TRACE(file);
  const Model model = load_model_file(model_path(file));
  const auto compiled = compile(model);
  const Ensemble e = spread_first_parameter(model, *compiled, 24);
  const std::vector<double> times = output_grid(0.0, t_end, 0.01);
  std::vector<double> generic, own;
  std::vector<IntegratorStats> generic_stats, own_stats;
  std::vector<InstanceStatus> generic_status, own_status;
  run_instances<M, const double*>(*compiled, e, spec, times, generic, generic_stats, generic_status);
  const auto zeroed = std::make_unique<CompiledModel>();
  run_instances<M, ModelConstants<Constant, const double*>>(*zeroed, e, spec, times, own, own_stats,
                                                            own_status);
  ASSERT_EQ(own.size(), generic.size());
  for (int i = 0; i < e.n_instances; ++i) {
    const size_t index = static_cast<size_t>(i);
    ASSERT_EQ(generic_status[index], InstanceStatus::ok) << i;
    EXPECT_EQ(own_status[index], generic_status[index]) << i;
    EXPECT_EQ(own_stats[index].steps, generic_stats[index].steps) << i;
    EXPECT_EQ(own_stats[index].rejected, generic_stats[index].rejected) << i;
    EXPECT_EQ(own_stats[index].function_evaluations, generic_stats[index].function_evaluations) << i;
    EXPECT_EQ(own_stats[index].jacobian_evaluations, generic_stats[index].jacobian_evaluations) << i;
  }
  EXPECT_GT(generic_stats[0].steps, 10);
  for (size_t j = 0; j < generic.size(); ++j)
    ASSERT_TRUE(same_bits(own[j], generic[j])) << "value " << j << ": " << own[j] << " vs " << generic[j];
}

TEST(GeneratedModels, TheQuarterCarsModelCodeGivesTheGenericDopri5ResultsBitForBit) {
  expect_model_code_reproduces_the_generic_run<Method::dopri5, QuarterCar>("quarter_car.json",
                                                                           dopri5(1e-6, 1e-8), 0.5);
}

TEST(GeneratedModels, TheStiffPendulumsModelCodeGivesTheGenericRn4ResultsBitForBit) {
  RunSpec spec;
  spec.method = Method::rn4;
  spec.control.rtol = 1e-6;
  spec.control.atol = 1e-6;
  expect_model_code_reproduces_the_generic_run<Method::rn4, StiffDoublePendulum>("stiff_double_pendulum.json",
                                                                                 spec, 0.5);
}

}  // namespace generated_models_test
}  // namespace myriad
