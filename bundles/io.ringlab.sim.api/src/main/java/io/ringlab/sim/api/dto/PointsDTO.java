package io.ringlab.sim.api.dto;

/**
 * A series of points: values recorded at their own virtual times rather than sampled at the series' interval (each
 * ping echo's round-trip time at the time the echo came back, say). The engine keeps at most a fixed number of points
 * per series, preallocated before the run starts; the points past it are counted in {@link #dropped}, not kept.
 * <p>
 * {@code timeSeconds} and {@code values} have the same length; point i is {@code (timeSeconds[i], values[i])}.
 *
 * @since 1.4
 */
public class PointsDTO {
    /** The virtual time of each point in seconds, in the order recorded (never decreasing); never {@code null}. */
    public double[] timeSeconds = new double[0];
    /** The value of each point, in the unit its series' name carries (ms for {@code rttMillis}); never {@code null}. */
    public double[] values = new double[0];
    /** How many points were recorded past the series' capacity and not kept; 0 when every point is here. */
    public long dropped;
}
