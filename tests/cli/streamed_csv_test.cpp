// simulate --out FILE.csv computed and written in chunks (host/simulate_csv_stream.hpp): the file is the one
// an unchunked run writes, byte for byte, whatever the chunk size (per-instance random roads, failed
// instances' NaN rows and parameter tables included), and the memory estimate is two chunks' series, not the
// ensemble's.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/cli_run.hpp"

namespace streamed_csv_test {

namespace fs = std::filesystem;
using myriad::test::CliRun;
using myriad::test::model_path;
using myriad::test::read_text_file;
using myriad::test::run_cli;

// The per-instance part of a --stats-json file without the wall times (which differ run to run).
nlohmann::json instance_counters(const fs::path& path) {
  nlohmann::json j = nlohmann::json::parse(read_text_file(path));
  nlohmann::json out = j.at("instances");
  for (auto& instance : out) instance.erase("wall_seconds");
  return out;
}

TEST(StreamedCsv, ChunksOfAnySizeWriteTheUnchunkedFileByteForByte) {
  const fs::path dir = myriad::test::fresh_directory("streamed_csv_roads");
  // The unchunked reference: --summary reduces the whole ensemble, so that run holds every series at once.
  const std::string road =
      "simulate " + model_path("quarter_car_road.json") + " --instances 23 --t-end 0.5 -q";
  CliRun r =
      run_cli(road + " --out " + (dir / "whole.csv").string() + " --summary " + (dir / "s.csv").string() +
              " --kpis " + (dir / "k_whole.csv").string() + " --stats-json " + (dir / "whole.json").string());
  ASSERT_EQ(r.status, 0) << r.output;
  for (const std::string chunk : {"1", "7", "23", "1000"}) {
    const fs::path out = dir / ("c" + chunk + ".csv"), kpis = dir / ("k" + chunk + ".csv"),
                   stats = dir / ("c" + chunk + ".json");
    r = run_cli(road + " --chunk " + chunk + " --out " + out.string() + " --kpis " + kpis.string() +
                " --stats-json " + stats.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(read_text_file(out), read_text_file(dir / "whole.csv")) << "--chunk " << chunk;
    EXPECT_EQ(read_text_file(kpis), read_text_file(dir / "k_whole.csv")) << "--chunk " << chunk;
    EXPECT_EQ(instance_counters(stats), instance_counters(dir / "whole.json")) << "--chunk " << chunk;
  }
  // Without --chunk the default (256 MiB of values) holds all 23: one chunk, the same file.
  r = run_cli(road + " --out " + (dir / "default.csv").string());
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_text_file(dir / "default.csv"), read_text_file(dir / "whole.csv"));
  fs::remove_all(dir);
}

TEST(StreamedCsv, ParameterRowsAndFailedInstancesLandInTheirRows) {
  const fs::path dir = myriad::test::fresh_directory("streamed_csv_rows");
  const std::string study = "simulate " + model_path("quarter_car.json") + " --params " +
                            model_path("quarter_car_study.csv") + " --t-end 0.3 -q --out ";
  CliRun r = run_cli(study + (dir / "whole.csv").string() + " --summary " + (dir / "s.csv").string());
  ASSERT_EQ(r.status, 0) << r.output;
  r = run_cli(study + (dir / "chunked.csv").string() + " --chunk 100");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(read_text_file(dir / "chunked.csv"), read_text_file(dir / "whole.csv"));
  // RK4 with too few steps: every instance stops at its step budget, its rows NaN from there; exit status 3.
  const std::string failing = "simulate " + model_path("stiff_double_pendulum.json") +
                              " --instances 9 --integrator rk4 --h 1e-3 --max-steps 300 -q --out ";
  r = run_cli(failing + (dir / "f_whole.csv").string() + " --summary " + (dir / "s2.csv").string());
  ASSERT_EQ(r.status, 3) << r.output;
  r = run_cli(failing + (dir / "f_chunked.csv").string() + " --chunk 2");
  ASSERT_EQ(r.status, 3) << r.output;
  const std::string chunked = read_text_file(dir / "f_chunked.csv");
  EXPECT_NE(chunked.find(",nan"), std::string::npos);
  EXPECT_EQ(chunked, read_text_file(dir / "f_whole.csv"));
  fs::remove_all(dir);
}

// --summary and --kpis beside a chunked --out: reduced chunk by chunk (StatisticsStream), the files of a run that
// holds the whole ensemble (no --out), byte for byte; random roads, so every instance differs.
TEST(StreamedCsv, SummaryAndKpisReducedChunkByChunkAreTheWholeEnsemblesFiles) {
  const fs::path dir = myriad::test::fresh_directory("streamed_csv_summary");
  const std::string road = "simulate " + model_path("quarter_car_road.json") + " --instances 150 --t-end 0.3 -q";
  CliRun r = run_cli(road + " --summary " + (dir / "s_whole.csv").string());
  ASSERT_EQ(r.status, 0) << r.output;
  // quarter_car.json names no KPIs: its --kpis come from the statistics too.
  const std::string plain = "simulate " + model_path("quarter_car.json") + " --params " +
                            model_path("quarter_car_study.csv") + " --t-end 0.3 -q";
  r = run_cli(plain + " --summary " + (dir / "p_whole.csv").string() + " --kpis " +
              (dir / "pk_whole.csv").string());
  ASSERT_EQ(r.status, 0) << r.output;
  for (const std::string chunk : {"64", "128", "2048"}) {  // 2048: one chunk of all
    const fs::path summary = dir / ("s" + chunk + ".csv");
    r = run_cli(road + " --chunk " + chunk + " --out " + (dir / "o.csv").string() + " --summary " +
                summary.string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(read_text_file(summary), read_text_file(dir / "s_whole.csv")) << "--chunk " << chunk;
    r = run_cli(plain + " --chunk " + chunk + " --out " + (dir / "p.csv").string() + " --summary " +
                (dir / "p.summary.csv").string() + " --kpis " + (dir / "pk.csv").string());
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(read_text_file(dir / "p.summary.csv"), read_text_file(dir / "p_whole.csv")) << "--chunk " << chunk;
    EXPECT_EQ(read_text_file(dir / "pk.csv"), read_text_file(dir / "pk_whole.csv")) << "--chunk " << chunk;
  }
  fs::remove_all(dir);
}

TEST(StreamedCsv, TheMemoryEstimateIsTwoChunksAndAChunkThatSplitsATileIsRefusedWithASummary) {
  const fs::path dir = myriad::test::fresh_directory("streamed_csv_memory");
  // 120 instances x 1001 output times x 13 outputs: 12.5 MB of values, more than --max-memory 8M allows at
  // once.
  const std::string run = "simulate " + model_path("quarter_car.json") +
                          " --instances 120 --t-end 1 --dt-out 0.001 --max-memory 8M --out ";
  CliRun r = run_cli(run + (dir / "whole.csv").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("a smaller --chunk"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "whole.csv"));
  // Without --out the whole ensemble is held: the way out is a CSV --out, written in chunks.
  r = run_cli("simulate " + model_path("quarter_car.json") + " --instances 120 --t-end 1 --dt-out 0.001 " +
              "--max-memory 8M --summary " + (dir / "s.csv").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("a CSV --out (written in chunks)"), std::string::npos) << r.output;
  r = run_cli(run + (dir / "big_chunks.csv").string() + " --chunk 60");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("a smaller --chunk"), std::string::npos) << r.output;
  r = run_cli(run + (dir / "chunked.csv").string() + " --chunk 10");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("20 of the 120 instances"), std::string::npos) << r.output;
  EXPECT_TRUE(fs::exists(dir / "chunked.csv"));
  // --summary reduces chunk by chunk, in whole tiles of 64 instances: another --chunk is refused, saying why.
  r = run_cli(run + (dir / "never.csv").string() + " --chunk 10 --summary " + (dir / "s.csv").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--chunk: 10 is not a multiple of 64, which --summary needs"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "never.csv"));
  r = run_cli("simulate " + model_path("quarter_car.json") + " --instances 3 --chunk 2 --summary " +
              (dir / "s.csv").string());
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--chunk: applies to a CSV --out"), std::string::npos) << r.output;
  fs::remove_all(dir);
}

}  // namespace streamed_csv_test
