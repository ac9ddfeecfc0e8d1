// The predictors of seed 003 sec. 3.1 (integrators/implicit_predictor.hpp): the two- and three-point weights
// (eqs. 14 and 17) extrapolate every polynomial of degree 3 and 5 exactly, for uneven spacing too, and one
// degree more is not exact (so the order claimed is the order obtained).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "integrators/implicit_predictor.hpp"

namespace myriad {
namespace {

// p(t) = sum c_k t^k and p'(t).
double predictor_poly_value(const std::vector<double>& c, double t) {
  double sum = 0.0;
  for (size_t k = c.size(); k-- > 0;) sum = sum * t + c[k];
  return sum;
}
double predictor_poly_slope(const std::vector<double>& c, double t) {
  double sum = 0.0;
  for (size_t k = c.size(); k-- > 1;) sum = sum * t + static_cast<double>(k) * c[k];
  return sum;
}

// The predicted p'(t_N) from K points at `past` minus the exact one.
double prediction_error(int K, double t_N, const double* past, const std::vector<double>& c) {
  double m[kMaxPredictorPoints], n[kMaxPredictorPoints];
  EXPECT_TRUE(predictor_weights(K, t_N, past, m, n));
  double y[kMaxPredictorPoints], ydot[kMaxPredictorPoints];
  const double* ys[kMaxPredictorPoints];
  const double* ydots[kMaxPredictorPoints];
  for (int j = 0; j < K; ++j) {
    y[j] = predictor_poly_value(c, past[j]);
    ydot[j] = predictor_poly_slope(c, past[j]);
    ys[j] = &y[j];
    ydots[j] = &ydot[j];
  }
  double predicted = 0.0;
  predict_derivative(K, 1, t_N - past[0], m, n, ys, ydots, &predicted);
  return predicted - predictor_poly_slope(c, t_N);
}

TEST(ImplicitPredictor, WeightsOfEq14AtEvenSpacing) {
  const double past[2] = {1.0, 0.0};
  double m[2], n[2];
  ASSERT_TRUE(predictor_weights(2, 2.0, past, m, n));
  EXPECT_DOUBLE_EQ(m[0], -12.0);
  EXPECT_DOUBLE_EQ(m[1], 12.0);
  EXPECT_DOUBLE_EQ(n[0], 8.0);
  EXPECT_DOUBLE_EQ(n[1], 5.0);
}

TEST(ImplicitPredictor, TwoPointsAreExactForCubicsAndThreePointsForQuintics) {
  const std::vector<double> cubic = {0.3, -1.2, 0.7, 2.1}, quartic = {0.3, -1.2, 0.7, 2.1, 1.0};
  const std::vector<double> quintic = {0.3, -1.2, 0.7, 2.1, -0.9, 0.4}, sextic = {0.3, -1.2, 0.7, 2.1, -0.9, 0.4, 1.0};
  // Uneven spacing, as between ESDIRK stages (t_N - t_N-1 is not the step).
  const double t_N = 1.3;
  const double two[2] = {1.1, 0.45};
  const double three[3] = {1.1, 0.45, 0.2};
  EXPECT_NEAR(prediction_error(2, t_N, two, cubic), 0.0, 1e-12);
  EXPECT_GT(std::fabs(prediction_error(2, t_N, two, quartic)), 1e-3);
  EXPECT_NEAR(prediction_error(3, t_N, three, quintic), 0.0, 1e-10);
  EXPECT_GT(std::fabs(prediction_error(3, t_N, three, sextic)), 1e-3);
  // K = 1: the constant prediction of eq. 15 is exact for straight lines only.
  EXPECT_NEAR(prediction_error(1, t_N, three, {0.5, 2.0}), 0.0, 1e-15);
  EXPECT_GT(std::fabs(prediction_error(1, t_N, three, {0.5, 2.0, 1.0})), 1e-3);
}

TEST(ImplicitPredictor, CoincidingTimesAreRefused) {
  const double past[3] = {1.0, 1.0, 0.5};
  double m[3], n[3];
  EXPECT_FALSE(predictor_weights(2, 2.0, past, m, n));
  EXPECT_FALSE(predictor_weights(3, 2.0, past, m, n));
}

}  // namespace
}  // namespace myriad
