#pragma once
// Every limit a model file and a run's output grid must keep, in one place (docs/model-format.md, "Limits").
// Each is checked before the thing it bounds is parsed, read or allocated, and a file over one is refused
// with a ModelError naming the file, the JSON pointer (or line and column) and both numbers. The largest
// shipped model, models/loops/ladder/ladder_L256.json (generate_ladder.py with L = 256), is 346 KB, nests 5
// levels deep, holds 23,899 JSON values, 513 bodies and joints, 256 loops (1024 constraint equations), 4
// parameters and 3 outputs; the numbers below leave room for models several times larger.
//
// The counts of bodies, forces, outputs, loops, drivers, time functions, constraint equations and independent
// coordinates are also the capacities of CompiledModel (model/compiled_model.hpp): that struct has fixed-size
// arrays so that it is trivially copyable to a device in one copy, and these sizes make it 316 KB.
#include <cstddef>

namespace myriad {

// ---- the file and its JSON (model/model_loader.cpp, model/json_limits.cpp) ----

// Bytes of a model file. 190 times the largest shipped model, room for long time-function tables; the text
// and its parsed document then stay within a few hundred MB. load_model_file reads at most one byte more, so
// a special file without end (/dev/zero) is refused instead of read forever.
constexpr std::size_t kMaxModelFileBytes = std::size_t{64} << 20;

// Nesting of JSON arrays and objects. A model nests at most 7 deep (a joint's frame's rotation matrix rows);
// nlohmann::json copies and destroys documents recursively, so a 200 KB file nested 100,000 deep would
// overflow the stack. Checked by an iterative scan of the text before nlohmann sees it.
constexpr int kMaxJsonDepth = 64;

// Members of one JSON object. nlohmann::ordered_json (which keeps `parameters` in file order) inserts a key
// by a linear search of the object's keys, so reading n keys costs n^2 / 2 comparisons: 100,000 parameters
// took 13.5 s. At 10,000 the worst object costs well under a second, and no object of a model is near it (the
// largest sections are arrays).
constexpr std::size_t kMaxJsonObjectMembers = 10000;

// Key comparisons of the whole document, n (n - 1) / 2 summed over its objects of n members: the cost of
// inserting every key by linear search. One object at kMaxJsonObjectMembers needs 5 * 10^7; this bounds what
// many large objects together can cost (about 0.3 s), where the value limit alone would allow 200 of them.
constexpr std::size_t kMaxJsonKeyComparisons = 100000000;

// Elements of one JSON array: a time-function table of 100,000 points (a road profile sampled at 1 kHz for
// 100 s). Reading arrays is linear; this bounds what one section or table can ask of memory.
constexpr std::size_t kMaxJsonArrayElements = 100000;

// JSON values (scalars, arrays and objects) in the whole document: 80 times the largest shipped model. About
// 16 bytes each once parsed, so the document stays under ~100 MB whatever the file's shape.
constexpr std::size_t kMaxJsonValues = 2000000;

// ---- counts of a model's sections (model/model_loader.cpp), which are CompiledModel's capacities ----

// Bodies, and joints (one per body). The ladder with L = 256 has 513; L up to 511 fits.
constexpr int kMaxBodies = 1024;
// `parameters`: each instance of an ensemble resolves every parameter (apply_parameters) and a parameter
// table has a column per parameter. Enough for a parameter per mass, inertia and spring of a large model.
constexpr int kMaxParameters = 4096;
// Force elements: several per body for a 128-body vehicle.
constexpr int kMaxForces = 512;
// Time functions: a tsda may carry two ground motions and an actuator, every force an actuator, every driver
// one function. Counted by compile(), which names the force or driver that passes it.
constexpr int kMaxTimeFunctions = 1024;
// Harmonics of one ISO 8608 road: 3 constants each per instance, and each evaluation sums them all.
constexpr int kMaxRoadHarmonics = 1024;
// Outputs: each is a CSV column and 8 bytes per instance and output time in a run's result.
constexpr int kMaxOutputs = 256;
// Named KPIs: each keeps a running state of about 40 doubles per instance (kpi/kpi.hpp).
constexpr int kMaxKpis = 64;
// Inputs: named channels of the stepping API; each is a column of set_inputs and a slot per function using it.
constexpr int kMaxInputs = 256;
// Loops: the ladder with L = 256 has 256.
constexpr int kMaxLoops = 512;
// Drivers: rheonomic constraints on single coordinates; a robot or test rig drives a few.
constexpr int kMaxDrivers = 64;
// Scalar constraint equations m (loops + drivers): the ladder with L = 511 has 2044.
constexpr int kMaxConstraints = 2048;
// Structural non-zeros of all loops' Jacobian rows, one row each (CompiledConstraints::slot_column).
constexpr int kMaxConstraintSlots = 16384;
// Degrees of freedom of a model with loops, and entries of `independent`: the reduced equations are dense in
// them (O(dof^3) per step).
constexpr int kMaxIndependent = 64;

// ---- geometry ----

// Largest |coordinate| of a point or frame origin (frame origins, centres of mass, force attachment points, loop
// points and lengths, output points), in metres. The dynamics form moments r x f in doubles: at |r| = 1e200 m
// every digit of a 1 m lever arm cancels away, and the fast and reference paths then disagree at the first
// significant digit (found by the mutant suite, tests/reliability/mutant_models_test.cpp). A million metres
// leaves ten significant digits for millimetre geometry and covers any machine or vehicle model.
constexpr double kMaxModelLength = 1e6;

// ---- a run's output grid ----

// Output times of one run. The result holds one double per instance, time and output (10^7 times of 3 outputs
// are 240 MB per instance) and the CSV one row per instance and time; a grid this fine is a mistake in t_end
// or dt_out, not a study. The model's `simulation` block and the CLI's --t-end/--dt-out are both checked
// against it.
constexpr std::size_t kMaxOutputTimes = 10000000;

// The number of times on the output grid t0, t0 + dt_out, ..., t_end (ensemble/ensemble_result.hpp,
// output_grid: the last step is shortened to end at t_end, and a remainder under 1e-12 max(1, |t_end|) adds
// no time), computed in double so that no quotient overflows an integer: any count above 2^53 (including an
// infinite quotient, e.g. dt_out = 1e-300 or t_end = 1e300 with dt_out = 1e-10) is returned as
// kOutputTimeCountUnbounded. Requires finite t0 <= t_end and dt_out > 0 (t_end may be +infinity); throws
// std::invalid_argument otherwise. O(1).
constexpr std::size_t kOutputTimeCountUnbounded = static_cast<std::size_t>(-1);
std::size_t output_time_count(double t0, double t_end, double dt_out);

}  // namespace myriad
