/**
 * What a run samples over time and how much evidence a figure rests on: the series recorder, its heap budget and spill
 * file ({@code SeriesRecorder}), and the rule that warns when a metric has too few samples ({@code SampleRule})
 * (docs/engine.md, "Series" and "Sample warnings").
 */
package io.ringlab.engine.kernel.series;
