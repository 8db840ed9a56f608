package io.ringlab.sim.api.dto;

/** CPU accounting of one element, in the manner of VPP's {@code show runtime}. */
public class RuntimeRowDTO {
    /** The element's name. */
    public String element;
    /** Charges made (calls). */
    public long calls;
    /** Packets handled by those charges (VPP "vectors"). */
    public long packets;
    /** Cycles charged. */
    public long cycles;
    /** CPU time charged in nanoseconds. */
    public double cpuNanos;
    /** {@code cycles / packets}; 0 when no packets. */
    public double cyclesPerPacket;
    /** {@code cpuNanos / packets}; 0 when no packets. */
    public double cpuNanosPerPacket;
}
