/**
 * Pipeline files: reading them into {@link io.ringlab.sim.api.dto.PipelineDTO}s with a file, line and column for every
 * problem ({@link io.ringlab.pipeline.format.PipelineReader}), writing them back as canonical, diff-friendly text that
 * reads back the same ({@link io.ringlab.pipeline.format.PipelineWriter}), the value grammar of durations, rates and
 * sizes shared by the engine and the console ({@link io.ringlab.pipeline.format.Units}), and the {@code --set}
 * grammar of run-time overrides ({@link io.ringlab.pipeline.format.Overrides}).
 * <p>
 * A pipeline file, in short (the full reference is {@code docs/pipeline-format.md}):
 * <pre>
 * name = "netdev-line-rate"
 * duration = 1s
 * headline = sink.rxMpps
 *
 * element src : source {
 *     rate = 100Gbit
 *     size = 64B
 * }
 * element eth0 : netdev
 * element sink : sink
 *
 * src -&gt; eth0
 * eth0.wire -&gt; sink
 *
 * layout {
 *     src = 40, 80
 * }
 * </pre>
 * This package knows the syntax, not the element types: which types, properties and ports exist is the engine's
 * business, through {@link io.ringlab.sim.api.dto.PropertyDescriptorDTO}s that {@link
 * io.ringlab.pipeline.format.Units#convert(io.ringlab.sim.api.dto.PropertyDescriptorDTO, String)} applies.
 * <p>
 * All classes are final with static methods or immutable values, and thread-safe; the DTOs they return are plain
 * public-field objects owned by the caller. Nothing here touches the OSGi framework, so the package works on the
 * class path as well; {@code ResultJson} needs Gson ({@code com.google.gson}) there.
 * <p>
 * Users import it up to the next major version (bnd computes the range). The package has no provider types.
 * <p>
 * 1.1: {@link io.ringlab.pipeline.format.SwapText}, a hot swap's record in the summary's words.
 * <p>
 * 1.2: the lexical layer is public ({@link io.ringlab.pipeline.format.Lexer}, {@link io.ringlab.pipeline.format.Token},
 * {@link io.ringlab.pipeline.format.Problems}, {@link io.ringlab.pipeline.format.Syntax}, the parsers' recovery model
 * {@link io.ringlab.pipeline.format.TextParser} and {@link io.ringlab.pipeline.format.PipelineReader#text}), so that
 * readers of other files of the same text family (experiment files, {@code docs/experiments.md}) share its tokens,
 * positions, messages and name rules; {@code [} and {@code ]} are symbols outside values, and
 * {@link io.ringlab.pipeline.format.Lexer#listItem()} reads the items of a {@code [ ... ]} list. {@code TextParser} is
 * the package's one type meant to be extended: adding an abstract method to it is a major change.
 * <p>
 * 1.3: {@link io.ringlab.pipeline.format.MetricUnits}, the unit of an output metric from its name's suffix;
 * {@link io.ringlab.pipeline.format.Syntax#didYouMean}, the names closest to a misspelt one;
 * {@link io.ringlab.pipeline.format.MetricNames}, the renamed metrics ({@code ...Mbps} to {@code ...MbitPerSecond}),
 * their old names' warning and the check of a named metric against what a run reports; {@link io.ringlab.pipeline.format.ByteRates}, the warning for a rate written in tc's bytes
 * per second; the
 * pipeline header key {@code plot = [ELEMENT.METRIC, ...]} (read into {@link io.ringlab.sim.api.dto.PipelineDTO#plot}
 * and written back), and {@code TextParser.list}, the text family's one reader of {@code [ ... ]} lists;
 * {@link io.ringlab.pipeline.format.Numbers}, numbers for people and for scripts, and
 * {@link io.ringlab.pipeline.format.RunText}, the summary's headline, invariant and sample-warning lines, which the
 * command line and the console both write; {@link io.ringlab.pipeline.format.OutputFile}, how every output file is
 * checked before a run and written (devices and FIFOs in place, links followed, regular files replaced atomically);
 * {@link io.ringlab.pipeline.format.ResultJson}, the results' JSON, written as a stream and read back;
 * {@link io.ringlab.pipeline.format.PipelineReader#MAX_FILE_BYTES}, the size limit of
 * {@link io.ringlab.pipeline.format.PipelineReader#text}, now the one reader of every input file (pipelines,
 * experiments, cost profiles), which refuses directories, FIFOs and devices unopened and reports text that is not UTF-8
 * at its first bad byte; {@link io.ringlab.pipeline.format.PipelineReader#readRunnable}, a file read to be run, which
 * must declare an element; {@link io.ringlab.pipeline.format.PipelineCopy}, the one deep copy of a pipeline (the
 * engine's for a run's overrides, the console's editor's).
 * <p>
 * 1.4: {@link io.ringlab.pipeline.format.TestbedViews}, a result's counters as {@code tc -s qdisc show},
 * {@code ethtool -S} and the BQL sysfs files show them.
 * <p>
 * 1.5: {@link io.ringlab.pipeline.format.MetricNames#declared}, the one reading of a declared metric family
 * ({@code stream<i>Cwnd}), and {@link io.ringlab.pipeline.format.MetricNames#FAMILY_INDEX}.
 */
@Export
@Version("1.5.0")
package io.ringlab.pipeline.format;

import org.osgi.annotation.bundle.Export;
import org.osgi.annotation.versioning.Version;
