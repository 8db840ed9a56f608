package io.ringlab.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.ringlab.experiment.api.dto.ComparisonDTO;
import io.ringlab.experiment.api.dto.MetricSummaryDTO;

/**
 * {@link Statistics} against a case computed by hand, and its edge cases.
 * <p>
 * The hand computation, with three seeds (two degrees of freedom, where Student's t has closed forms):
 * <pre>
 * baseline a = [10, 12, 14], variant b = [11, 14, 17], paired by seed
 *
 * t(0.975, 2): for 2 degrees of freedom the quantile is t_p = (2p - 1) / sqrt(2 p (1 - p)),
 *   so t(0.975, 2) = 0.95 / sqrt(2 * 0.975 * 0.025) = 0.95 / sqrt(0.04875) = 4.302652730
 *
 * a: mean 12; deviations -2, 0, 2; s^2 = (4 + 0 + 4) / 2 = 4, s = 2; standard error 2 / sqrt(3) = 1.154700538
 *    half-width 4.302652730 * 1.154700538 = 4.968275424, CI [7.031724576, 16.968275424]
 * b: mean 14; deviations -3, 0, 3; s^2 = 18 / 2 = 9, s = 3; standard error 3 / sqrt(3) = 1.732050808
 *    half-width 4.302652730 * 1.732050808 = 7.452413135, CI [6.547586865, 21.452413135]
 *
 * differences d = b - a = [1, 2, 3]: mean 2; s^2 = (1 + 0 + 1) / 2 = 1, s = 1; standard error 1 / sqrt(3) = 0.577350269
 *    half-width 4.302652730 * 0.577350269 = 2.484137712, CI [-0.484137712, 4.484137712]
 *    t = 2 / 0.577350269 = 2 sqrt(3) = 3.464101615
 *    for 2 degrees of freedom the CDF is F(t) = 1/2 + t / (2 sqrt(2 + t^2)), so the two-sided p-value is
 *    p = 2 (1 - F(|t|)) = 1 - |t| / sqrt(2 + t^2) = 1 - sqrt(12 / 14) = 1 - 0.925820100 = 0.074179900
 * </pre>
 */
class StatisticsTest {
    private static final double EPS = 1e-8;

    @Test
    void theMeansIntervalMatchesTheHandComputation() {
        MetricSummaryDTO a = Statistics.summarize(new double[] {10, 12, 14});
        assertEquals(3, a.n);
        assertEquals(12.0, a.mean, EPS);
        assertEquals(2.0, a.standardDeviation, EPS);
        assertEquals(7.031724576, a.ci95Low, EPS);
        assertEquals(16.968275424, a.ci95High, EPS);
        assertNull(a.note);

        MetricSummaryDTO b = Statistics.summarize(new double[] {11, 14, 17});
        assertEquals(14.0, b.mean, EPS);
        assertEquals(3.0, b.standardDeviation, EPS);
        assertEquals(6.547586865, b.ci95Low, EPS);
        assertEquals(21.452413135, b.ci95High, EPS);
    }

    @Test
    void thePairedDifferenceAndTTestMatchTheHandComputation() {
        ComparisonDTO c = Statistics.compare(new double[] {10, 12, 14}, new double[] {11, 14, 17});
        assertEquals(3, c.n);
        assertEquals(2.0, c.difference, EPS);
        assertEquals(-0.484137712, c.ci95Low, EPS);
        assertEquals(4.484137712, c.ci95High, EPS);
        assertEquals(3.464101615, c.tStatistic, EPS);
        assertEquals(0.074179900, c.pValue, EPS);
        assertNull(c.note);
    }

    @Test
    void theDifferenceIsTheVariantMinusTheBaseline() {
        ComparisonDTO c = Statistics.compare(new double[] {11, 14, 17}, new double[] {10, 12, 14});
        assertEquals(-2.0, c.difference, EPS);
        assertEquals(-3.464101615, c.tStatistic, EPS);
        assertEquals(0.074179900, c.pValue, EPS, "two-sided: the sign does not change p");
    }

    @Test
    void theQuantileForTwoDegreesOfFreedomIsTheClosedForm() {
        assertEquals(0.95 / Math.sqrt(2 * 0.975 * 0.025), Statistics.tQuantile(2), 1e-10);
    }

    @Test
    void noValuesGiveOnlyN() {
        MetricSummaryDTO s = Statistics.summarize(new double[0]);
        assertEquals(0, s.n);
        assertNull(s.mean);
        assertNull(s.ci95Low);
        assertNull(s.ci95High);
        assertEquals("no run gave a value", s.note);
        ComparisonDTO c = Statistics.compare(new double[0], new double[0]);
        assertEquals(0, c.n);
        assertNull(c.difference);
        assertNull(c.pValue);
    }

    @Test
    void oneValueGivesAMeanButNoInterval() {
        MetricSummaryDTO s = Statistics.summarize(new double[] {7.5});
        assertEquals(1, s.n);
        assertEquals(7.5, s.mean);
        assertNull(s.standardDeviation);
        assertNull(s.ci95Low);
        assertNull(s.ci95High);
        assertTrue(s.note.startsWith("n = 1"), s.note);
        ComparisonDTO c = Statistics.compare(new double[] {7.5}, new double[] {9});
        assertEquals(1.5, c.difference);
        assertNull(c.ci95Low);
        assertNull(c.tStatistic);
        assertNull(c.pValue);
        assertTrue(c.note.startsWith("n = 1"), c.note);
    }

    @Test
    void equalValuesGiveAPointIntervalNotNaN() {
        // 0.1 three times: a mean computed in floating point may not be exactly 0.1, the check for equality is exact
        MetricSummaryDTO s = Statistics.summarize(new double[] {0.1, 0.1, 0.1});
        assertEquals(0.1, s.mean);
        assertEquals(0.0, s.standardDeviation);
        assertEquals(0.1, s.ci95Low);
        assertEquals(0.1, s.ci95High);
        assertTrue(s.note.startsWith("zero variance"), s.note);
    }

    @Test
    void aConstantNonZeroDifferenceHasPZeroAndNoT() {
        ComparisonDTO c = Statistics.compare(new double[] {12.0, 12.0, 12.0}, new double[] {12.05, 12.05, 12.05});
        assertEquals(12.05 - 12.0, c.difference);
        assertEquals(c.difference, c.ci95Low);
        assertEquals(c.difference, c.ci95High);
        assertNull(c.tStatistic);
        assertEquals(0.0, c.pValue);
        assertTrue(c.note.contains("p = 0"), c.note);
    }

    @Test
    void identicalVariantsHavePOneAndNoT() {
        ComparisonDTO c = Statistics.compare(new double[] {3, 5, 8}, new double[] {3, 5, 8});
        assertEquals(0.0, c.difference);
        assertEquals(0.0, c.ci95Low);
        assertEquals(0.0, c.ci95High);
        assertNull(c.tStatistic);
        assertEquals(1.0, c.pValue);
        assertTrue(c.note.contains("p = 1"), c.note);
    }

    @Test
    void samplesOfDifferentLengthsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Statistics.compare(new double[] {1, 2}, new double[] {1}));
        assertEquals("paired samples differ in length: a=2, b=1", e.getMessage());
    }
}
