package io.ringlab.experiment.api.dto;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code sweep} statement of an experiment file: the targets it sets and their values, expanded. A plain sweep has
 * one target ({@code sweep eth0.txRing = [64, 128, 256]}); a zipped sweep has several that move together
 * ({@code sweep (wire.rate, rwire.rate) = [(100Mbit, 100Mbit), (1Gbit, 1Gbit)]}). An experiment's sweeps combine as a
 * cartesian product, the first sweep varying slowest, and every variant runs with every seed at every point.
 * <p>
 * Not thread-safe.
 *
 * @since 1.3
 */
public class SweepDTO {
    /**
     * What the sweep sets, in the order written: {@code ELEMENT.PROPERTY} for a property (its values in the
     * {@code --set} grammar), or {@code ELEMENT} alone for the element's type (its values element type ids, applied as a
     * variant's {@code type} statement is). Never {@code null}.
     */
    public List<String> targets = new ArrayList<>();
    /**
     * The sweep's values, expanded (a range becomes its values), in order: one list per value of the sweep, each with one
     * text per target, in {@link #targets}' order. Never {@code null}.
     */
    public List<List<String>> values = new ArrayList<>();
    /** Line of the {@code sweep} statement in the experiment file, from 1; 0 when built by hand. */
    public int line;
    /** Column of the statement, from 1; 0 when built by hand. */
    public int column;
}
