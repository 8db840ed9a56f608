package io.ringlab.traffic;

import static io.ringlab.sim.api.dto.MetricDescriptorDTO.COUNTER;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.GAUGE;
import static io.ringlab.sim.api.dto.MetricDescriptorDTO.HISTOGRAM;

import java.util.List;

import org.osgi.service.component.annotations.Component;

import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.sim.api.dto.MetricDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Direction;
import io.ringlab.sim.api.dto.PortDescriptorDTO.Mode;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO;
import io.ringlab.sim.api.dto.PropertyDescriptorDTO.Kind;

/**
 * Element type {@code tcp}: bulk TCP senders (see {@link TcpElement} and {@code docs/models/tcp.md}).
 * <p>
 * Metrics: counters {@code segmentsSent}, {@code retransmits} (every segment sent again: fast, partial-ACK, timeout and
 * go-back-N resends), {@code fastRetransmits} (fast recovery episodes), {@code rtoCount}, {@code tsqThrottles} (times a
 * stream set {@code TSQ_THROTTLED}), {@code ackedBytes} (series), {@code acksReceived}, {@code dupAcks},
 * {@code allocFailures}, {@code hystartTrainExits} and {@code hystartDelayExits} (CUBIC's HyStart exits,
 * {@code LINUX_MIB_TCPHYSTART*DETECT}); gauges {@code goodputMbitPerSecond} (acknowledged bytes since {@code start}), {@code cwnd} (stream 0,
 * series), {@code cwndMean}, {@code ssthresh} (stream 0, series; 2147483647 before the first loss), {@code inFlightBytes}
 * ({@code snd_nxt - snd_una} summed, series), {@code srttMillis} (mean over streams with a sample), {@code rtoMillis},
 * {@code pacingRateMbitPerSecond} and {@code tsqLimitBytes} (stream 0; the latter a series when TSQ is on), {@code wmemBytes}
 * ({@code sk_wmem_alloc} summed, series), {@code wmemMaxBytes} (largest {@code sk_wmem_alloc} of any stream); per stream
 * {@code stream<i>GoodputMbitPerSecond}, {@code stream<i>Cwnd}, {@code stream<i>WmemMaxBytes}; with CUBIC, stream 0's
 * {@code cubicWmax}, {@code cubicKSeconds}, {@code cubicEpochSeconds} (-1 between epochs) and {@code cubicDelayMinSeconds},
 * all sampled as series. Drop reason {@code tcp-not-ours} for a packet on {@code in} that is not an ACK of this element's
 * flows.
 * <p>
 * Thread-safe; every call to {@link #create} returns an independent element.
 */
@Component(service = ElementFactory.class, property = ElementFactory.TYPE + "=tcp")
public class TcpFactory implements ElementFactory {
    // The element's metrics, each declared once: the descriptor lists them and the element registers by them.
    static final MetricDescriptorDTO GOODPUT_MBIT_PER_SECOND = new MetricDescriptorDTO(GAUGE, "goodputMbitPerSecond",
            "acknowledged bytes in megabits per second since start");
    static final MetricDescriptorDTO ACKED_BYTES = new MetricDescriptorDTO(COUNTER, "ackedBytes", "bytes acknowledged").throughput(null);
    static final MetricDescriptorDTO SEGMENTS_SENT = new MetricDescriptorDTO(COUNTER, "segmentsSent",
            "segments pushed, retransmissions included (a GSO skb counts its segments)");
    static final MetricDescriptorDTO RETRANSMITS = new MetricDescriptorDTO(COUNTER, "retransmits",
            "segments sent a second time or more");
    static final MetricDescriptorDTO FAST_RETRANSMITS = new MetricDescriptorDTO(COUNTER, "fastRetransmits",
            "fast retransmits (entries into recovery)");
    static final MetricDescriptorDTO RTO_COUNT = new MetricDescriptorDTO(COUNTER, "rtoCount",
            "retransmission timeouts");
    static final MetricDescriptorDTO TSQ_THROTTLES = new MetricDescriptorDTO(COUNTER, "tsqThrottles",
            "times a stream was throttled by TCP small queues (TSQ_THROTTLED)");
    static final MetricDescriptorDTO ACKS_RECEIVED = new MetricDescriptorDTO(COUNTER, "acksReceived", "ACKs taken");
    static final MetricDescriptorDTO DUP_ACKS = new MetricDescriptorDTO(COUNTER, "dupAcks", "of which duplicates");
    static final MetricDescriptorDTO ALLOC_FAILURES = new MetricDescriptorDTO(COUNTER, "allocFailures",
            "segments not sent for want of a buffer");
    static final MetricDescriptorDTO SKBS_SENT = new MetricDescriptorDTO(COUNTER, "skbsSent",
            "skbs pushed: GSO skbs, single segments and control segments (SYN, ACK)");
    static final MetricDescriptorDTO LOSS_PROBES = new MetricDescriptorDTO(COUNTER, "lossProbes",
            "tail loss probes sent (tcp_send_loss_probe: new data or the last segment again)");
    static final MetricDescriptorDTO LOSS_PROBE_RECOVERIES = new MetricDescriptorDTO(COUNTER, "lossProbeRecoveries",
            "losses repaired by a probe (tcp_process_tlp_ack: a CWR reduction)");
    static final MetricDescriptorDTO SPURIOUS_RTOS = new MetricDescriptorDTO(COUNTER, "spuriousRtos",
            "timeouts F-RTO found spurious and undid (LINUX_MIB_TCPSPURIOUSRTOS)");
    static final MetricDescriptorDTO UNDOS = new MetricDescriptorDTO(COUNTER, "undos",
            "cwnd reductions undone (tcp_undo_cwnd_reduction: D-SACK, timestamps, F-RTO)");
    static final MetricDescriptorDTO DSACKS_RECEIVED = new MetricDescriptorDTO(COUNTER, "dsacksReceived",
            "ACKs carrying a D-SACK block");
    static final MetricDescriptorDTO REORDERINGS = new MetricDescriptorDTO(COUNTER, "reorderings",
            "times the reordering degree rose (tcp_update_reordering)");
    static final MetricDescriptorDTO LOST_RETRANSMITS = new MetricDescriptorDTO(COUNTER, "lostRetransmits",
            "retransmissions RACK found lost (LINUX_MIB_TCPLOSTRETRANSMIT)");
    static final MetricDescriptorDTO RWND_LIMITED = new MetricDescriptorDTO(COUNTER, "rwndLimited",
            "times tcp_write_xmit stopped at the peer's window (tcp_snd_wnd_test)");
    static final MetricDescriptorDTO CWND = new MetricDescriptorDTO(GAUGE, "cwnd",
            "stream 0's congestion window, in segments (inflated during recovery)");
    static final MetricDescriptorDTO CWND_MEAN = new MetricDescriptorDTO(GAUGE, "cwndMean",
            "mean congestion window over the streams, in segments");
    static final MetricDescriptorDTO SSTHRESH = new MetricDescriptorDTO(GAUGE, "ssthresh",
            "stream 0's slow-start threshold; 2,147,483,647 before the first loss");
    static final MetricDescriptorDTO IN_FLIGHT_BYTES = new MetricDescriptorDTO(GAUGE, "inFlightBytes",
            "bytes sent and not acknowledged (snd_nxt - snd_una), summed");
    static final MetricDescriptorDTO SRTT_MILLIS = new MetricDescriptorDTO(GAUGE, "srttMillis",
            "mean smoothed RTT of the streams that have a sample");
    static final MetricDescriptorDTO RTO_MILLIS = new MetricDescriptorDTO(GAUGE, "rtoMillis",
            "stream 0's current retransmission timeout (backed off)");
    static final MetricDescriptorDTO PACING_RATE_MBIT_PER_SECOND = new MetricDescriptorDTO(GAUGE,
            "pacingRateMbitPerSecond",
            "stream 0's pacing rate (sk_pacing_rate)");
    static final MetricDescriptorDTO TSQ_LIMIT_BYTES = new MetricDescriptorDTO(GAUGE, "tsqLimitBytes",
            "stream 0's TSQ limit now; 0 with tsq off");
    static final MetricDescriptorDTO WMEM_BYTES = new MetricDescriptorDTO(GAUGE, "wmemBytes",
            "bytes of skbs not yet freed (sk_wmem_alloc), summed");
    static final MetricDescriptorDTO WMEM_MAX_BYTES = new MetricDescriptorDTO(GAUGE, "wmemMaxBytes",
            "the largest sk_wmem_alloc any stream reached");
    static final MetricDescriptorDTO CUBIC_WMAX = new MetricDescriptorDTO(GAUGE, "cubicWmax",
            "CUBIC: stream 0's window before the last reduction (W_max), in segments");
    static final MetricDescriptorDTO CUBIC_KSECONDS = new MetricDescriptorDTO(GAUGE, "cubicKSeconds",
            "CUBIC: stream 0's time to grow back to W_max (K)");
    static final MetricDescriptorDTO CUBIC_EPOCH_SECONDS = new MetricDescriptorDTO(GAUGE, "cubicEpochSeconds",
            "CUBIC: virtual time when stream 0's current epoch started");
    static final MetricDescriptorDTO CUBIC_DELAY_MIN_SECONDS = new MetricDescriptorDTO(GAUGE, "cubicDelayMinSeconds",
            "CUBIC: stream 0's smallest RTT seen (delay_min)");
    static final MetricDescriptorDTO HYSTART_TRAIN_EXITS = new MetricDescriptorDTO(COUNTER, "hystartTrainExits",
            "CUBIC: slow starts ended by HyStart's ACK-train detector (LINUX_MIB_TCPHYSTARTTRAINDETECT)");
    static final MetricDescriptorDTO HYSTART_DELAY_EXITS = new MetricDescriptorDTO(COUNTER, "hystartDelayExits",
            "CUBIC: slow starts ended by HyStart's delay detector (LINUX_MIB_TCPHYSTARTDELAYDETECT)");
    // Per stream i, registered under the name stream(family, i): stream0Cwnd, stream1Cwnd, ...
    static final MetricDescriptorDTO STREAM_GOODPUT_MBIT_PER_SECOND = new MetricDescriptorDTO(GAUGE,
            "stream<i>GoodputMbitPerSecond", "stream i's acknowledged bytes in megabits per second since start");
    static final MetricDescriptorDTO STREAM_ACKED_BYTES = new MetricDescriptorDTO(GAUGE, "stream<i>AckedBytes",
            "stream i's bytes acknowledged since it started (flent's per-stream throughput is drawn from its series)");
    static final MetricDescriptorDTO STREAM_SRTT_MILLIS = new MetricDescriptorDTO(GAUGE, "stream<i>SrttMillis",
            "stream i's smoothed RTT (srtt_us >> 3); 0 before its first sample (flent's tcp_rtt is drawn from its series)");
    static final MetricDescriptorDTO STREAM_CWND = new MetricDescriptorDTO(GAUGE, "stream<i>Cwnd",
            "stream i's congestion window, in segments");
    static final MetricDescriptorDTO STREAM_WMEM_MAX_BYTES = new MetricDescriptorDTO(GAUGE, "stream<i>WmemMaxBytes",
            "the largest sk_wmem_alloc stream i reached");
    static final MetricDescriptorDTO STREAM_FRAMES_SENT = new MetricDescriptorDTO(GAUGE, "stream<i>FramesSent",
            "frames stream i handed to the IP layer since it started, as a capture of the element's out port counts them"
            + " (an skb each: a GSO skb is one frame)");
    static final MetricDescriptorDTO STREAM_BYTES_SENT = new MetricDescriptorDTO(GAUGE, "stream<i>BytesSent",
            "those frames' bytes on the wire (headers included), since it started");
    static final MetricDescriptorDTO STREAM_FRAMES_RECEIVED = new MetricDescriptorDTO(GAUGE, "stream<i>FramesReceived",
            "frames of stream i that arrived at the element's in port since it started");
    static final MetricDescriptorDTO STREAM_BYTES_RECEIVED = new MetricDescriptorDTO(GAUGE, "stream<i>BytesReceived",
            "those frames' bytes on the wire, since it started");
    /**
     * The histogram of the RTT of each ACK that newly acknowledges data none of which was retransmitted, from the most
     * recently sent segment it acknowledges ({@code ca_rtt_us}): what Wireshark's {@code tcp.analysis.ack_rtt} shows in a
     * capture at the sender.
     */
    static final String ACK_RTT = "ackRtt";
    static final List<MetricDescriptorDTO> ACK_RTT_METRICS = List.of(
            new MetricDescriptorDTO(HISTOGRAM, "ackRttCount", "ACKs with an RTT sample (newly acknowledged data, none"
                    + " retransmitted)"),
            new MetricDescriptorDTO(HISTOGRAM, "ackRttP50Millis", "median RTT from the most recently sent segment an ACK"
                    + " acknowledges (ca_rtt_us; Wireshark's tcp.analysis.ack_rtt)"),
            new MetricDescriptorDTO(HISTOGRAM, "ackRttP90Millis", "90th percentile of that RTT"),
            new MetricDescriptorDTO(HISTOGRAM, "ackRttP99Millis", "99th percentile of that RTT"),
            new MetricDescriptorDTO(HISTOGRAM, "ackRttMinMillis", "smallest such RTT"),
            new MetricDescriptorDTO(HISTOGRAM, "ackRttMaxMillis", "largest such RTT"),
            new MetricDescriptorDTO(HISTOGRAM, "ackRttMeanMillis", "mean of that RTT"));
    /** Every metric the element registers, in the order {@code ringlab elements} lists them. */
    static final List<MetricDescriptorDTO> METRICS = List.of(GOODPUT_MBIT_PER_SECOND, ACKED_BYTES, SEGMENTS_SENT,
            RETRANSMITS, FAST_RETRANSMITS, RTO_COUNT, TSQ_THROTTLES, ACKS_RECEIVED, DUP_ACKS, ALLOC_FAILURES, SKBS_SENT,
            HYSTART_TRAIN_EXITS, HYSTART_DELAY_EXITS,
            LOSS_PROBES, LOSS_PROBE_RECOVERIES, SPURIOUS_RTOS, UNDOS, DSACKS_RECEIVED, REORDERINGS, LOST_RETRANSMITS,
            RWND_LIMITED,
            CWND, CWND_MEAN, SSTHRESH, IN_FLIGHT_BYTES, SRTT_MILLIS, RTO_MILLIS, PACING_RATE_MBIT_PER_SECOND,
            TSQ_LIMIT_BYTES, WMEM_BYTES, WMEM_MAX_BYTES,
            STREAM_GOODPUT_MBIT_PER_SECOND, STREAM_ACKED_BYTES, STREAM_SRTT_MILLIS, STREAM_CWND, STREAM_WMEM_MAX_BYTES,
            STREAM_FRAMES_SENT, STREAM_BYTES_SENT, STREAM_FRAMES_RECEIVED, STREAM_BYTES_RECEIVED, CUBIC_WMAX, CUBIC_KSECONDS, CUBIC_EPOCH_SECONDS, CUBIC_DELAY_MIN_SECONDS);

    private static final ElementDescriptorDTO DESCRIPTOR = describe();

    /**
     * @param family a per-stream declaration, its name holding {@code <i>}
     * @param stream the stream's index
     * @return the name of the stream's member of the family ({@code stream0Cwnd})
     */
    static String stream(MetricDescriptorDTO family, int stream) {
        return family.name.replace("<i>", Integer.toString(stream));
    }

    private static ElementDescriptorDTO describe() {
        ElementDescriptorDTO d = new ElementDescriptorDTO();
        d.type = "tcp";
        d.category = ElementDescriptorDTO.SOURCE;
        d.summary = "TCP senders like iperf, as the kernel preset runs TCP: handshake, SACK, PRR, FACK/RACK, TLP, F-RTO,"
                + " Reno or CUBIC with HyStart, TCP Small Queues, GSO";
        d.description = "N streams, each a connection with its own flow (flowBase(name) + index) that connects at 'start'"
                + " (SYN / SYN-ACK / ACK negotiating MSS, SACK, timestamps, window scaling) and then always has data (or"
                + " 'count' bytes and a FIN). Each follows net/ipv4/tcp_input.c, tcp_output.c, tcp_recovery.c of its"
                + " 'kernel': a SACK scoreboard (tcp_sacktag_write_queue), loss marking by dupthresh and FACK (v3.19, v4.6)"
                + " or RACK (v4.6 after recovery starts; current with the reordering timer), PRR (tcp_cwnd_reduction),"
                + " the tcp_try_undo_* paths, F-RTO, TLP, Linux's RTT estimator and RTO with backoff, the peer's"
                + " advertised window. Without SACK (either end's 'sack = false') it is NewReno. TCP Small Queues and GSO"
                + " autosizing as tcp_write_xmit. ACKs from a 'host' arrive on 'in' over the reverse path.";
        d.ports.add(PortDescriptorDTO.of("out", Direction.OUT, Mode.PUSH, true, "segments towards the qdisc"));
        PortDescriptorDTO in = PortDescriptorDTO.of("in", Direction.IN, Mode.PUSH, true,
                "the peer's segments (SYN-ACK, ACKs) from the reverse path");
        in.pushesInCall.add("out"); // an ACK that opens the window sends at once (tcp_ack, then tcp_data_snd_check)
        in.pushesInCall.add(TcpElement.PASS);
        d.ports.add(in);
        d.ports.add(PortDescriptorDTO.of(TcpElement.PASS, Direction.OUT, Mode.PUSH, false,
                "what arrives on 'in' and is not this element's (another flow, another protocol), passed on to the next"
                        + " element of the host (a tcp, a ping, a host receiver) as the kernel's socket lookup finds"
                        + " another socket; unconnected, such packets are dropped as tcp-not-ours"));
        d.properties.add(PropertyDescriptorDTO.of("streams", Kind.INTEGER, "1", "1", "64",
                "parallel streams (iperf -P), each its own connection and flow: flowBase(name) + index"));
        d.properties.add(PropertyDescriptorDTO.choice("congestion", "cubic", List.of("reno", "cubic"),
                "congestion control: reno (net/ipv4/tcp_cong.c tcp_reno_cong_avoid, tcp_reno_ssthresh) or cubic"
                        + " (net/ipv4/tcp_cubic.c: beta 717/1024, bic_scale 41, fast convergence, TCP friendliness, HyStart"
                        + " unless hystart = false)"));
        d.properties.add(PropertyDescriptorDTO.of("hystart", Kind.BOOLEAN, "true", null, null,
                "CUBIC's hybrid slow start (tcp_cubic.c module parameter hystart, 1 by default): ACK-train and delay"
                        + " detection from a window of 16 (hystart_low_window) end slow start with ssthresh = cwnd;"
                        + " false runs slow start until a loss or initialSsthresh"));
        TcpProperties.addTo(d);
        d.properties.add(PropertyDescriptorDTO.choice("open", "active", List.of("active", "passive", "script"),
                "active: connect at 'start'; passive: listen at 'start' for the peer's SYN; script: a test harness calls"
                        + " listen/connect (packetdrill)"));
        d.properties.add(PropertyDescriptorDTO.choice("app", "bulk", List.of("bulk", "writes"),
                "bulk: write everything (or 'count') once connected; writes: data only from a harness's write() calls"));
        d.properties.add(PropertyDescriptorDTO.choice("tsq", "v3.19", List.of("off", "v3.12", "v3.19"),
                "TCP Small Queues limit (net/ipv4/tcp_output.c tcp_write_xmit): off; v3.12 (v3.12-v3.18)"
                        + " max(tcpLimitOutputBytes, pacing_rate >> 10); v3.19 (v3.19+, commit 605ad7f184b6)"
                        + " min(max(2 * truesize, pacing_rate >> 10), tcpLimitOutputBytes)"));
        d.properties.add(PropertyDescriptorDTO.of("gso", Kind.BOOLEAN, "true", null, null,
                "GSO with TSO autosizing (net/ipv4/tcp_output.c tcp_tso_autosize, 2014): each skb carries"
                        + " max(min(pacing_rate >> 10, 65536 - 1 - MAX_TCP_HEADER) / mss, 2) segments, capped by the cwnd"
                        + " quota and the peer's window; false sends one segment per skb"));
        d.properties.add(PropertyDescriptorDTO.of("tcpLimitOutputBytes", Kind.SIZE, "131072B", "1B", "2147483647B",
                "sysctl net.ipv4.tcp_limit_output_bytes in bytes of truesize: 131072 in 2014, 262144 since June 2015 (commit c39c4c6abb89)"));
        d.properties.add(PropertyDescriptorDTO.of("start", Kind.DURATION, "0s", "0s", null,
                "when the streams connect (or listen)"));
        d.properties.add(PropertyDescriptorDTO.of("tos", Kind.INTEGER, "0", "0", "255",
                "IPv4 TOS byte of the segments; priority = rt_tos2priority(tos)"));
        d.properties.add(PropertyDescriptorDTO.of("count", Kind.SIZE, "0B", "0B", null,
                "bytes each stream sends (iperf -n), then a FIN; 0 sends until the run ends"));
        d.properties.add(PropertyDescriptorDTO.of("buffers", Kind.INTEGER, "4096", "1", "16777216",
                "buffers in the element's pool (kind fixed), shared by its streams; an empty pool makes a stream wait"
                        + " for a buffer to be freed (allocFailures)"));
        d.metricDescriptors.addAll(METRICS);
        d.metricDescriptors.addAll(ACK_RTT_METRICS);
        d.modelPage = "docs/models/tcp.md";
        return d;
    }

    @Override
    public ElementDescriptorDTO descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Element create(ElementContext context) {
        return new TcpElement(context);
    }
}
