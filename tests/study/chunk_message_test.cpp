// A chunk sent between ranks arrives as it left: every array, bit for bit; a message cut short is refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "study/chunk_message.hpp"

namespace myriad::study {
namespace chunk_message_test {

TEST(ChunkMessage, AChunkRoundTripsBitForBit) {
  ChunkRows c;
  c.row0 = 12;
  c.rows = 3;
  c.backend = "cpu";
  c.integrator = "dopri5";
  c.threads = 2;
  c.status = {0, 3, 0};
  c.failure_time = {std::numeric_limits<double>::quiet_NaN(), 0.125, std::numeric_limits<double>::quiet_NaN()};
  c.steps = {10, 20, 30};
  c.rejected = {1, 2, 3};
  c.function_evaluations = {60, 120, 180};
  c.jacobian_evaluations = {0, 0, 0};
  c.lu_factorizations = {0, 0, 0};
  c.kpis = {1.5, -0.0, 1e-300, 2.5, std::numeric_limits<double>::infinity(), 7.0};
  c.series = {{1, 2, 3, 4, 5, 6}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}};
  c.series_times = {0.0, 0.01};
  long long k = -1;
  const ChunkRows back = unpack_chunk(pack_chunk(4, c), k);
  EXPECT_EQ(k, 4);
  EXPECT_EQ(back.row0, 12);
  EXPECT_EQ(back.rows, 3);
  EXPECT_EQ(back.backend, "cpu");
  EXPECT_EQ(back.integrator, "dopri5");
  EXPECT_EQ(back.threads, 2);
  EXPECT_EQ(back.status, c.status);
  EXPECT_EQ(std::memcmp(back.failure_time.data(), c.failure_time.data(), 3 * sizeof(double)), 0);
  EXPECT_EQ(back.steps, c.steps);
  EXPECT_EQ(back.function_evaluations, c.function_evaluations);
  EXPECT_EQ(std::memcmp(back.kpis.data(), c.kpis.data(), c.kpis.size() * sizeof(double)), 0);
  EXPECT_EQ(back.series, c.series);
  EXPECT_EQ(back.series_times, c.series_times);
}

TEST(ChunkMessage, EndsFailuresAndDamagedMessagesAreTold) {
  EXPECT_EQ(message_kind(pack_end(true)), MessageKind::end);
  EXPECT_TRUE(unpack_end(pack_end(true)));
  EXPECT_FALSE(unpack_end(pack_end(false)));
  long long k = 0;
  EXPECT_EQ(unpack_failure(pack_failure(7, "no memory"), k), "no memory");
  EXPECT_EQ(k, 7);
  ChunkRows c;
  c.rows = 1;
  c.status = {0};
  c.failure_time = {0};
  c.steps = c.rejected = c.function_evaluations = c.jacobian_evaluations = c.lu_factorizations = {0};
  std::vector<unsigned char> message = pack_chunk(0, c);
  message.resize(message.size() - 3);
  EXPECT_THROW(unpack_chunk(message, k), std::runtime_error);
  EXPECT_THROW(message_kind({}), std::runtime_error);
  EXPECT_THROW(message_kind({'X'}), std::runtime_error);
}

}  // namespace chunk_message_test
}  // namespace myriad::study
