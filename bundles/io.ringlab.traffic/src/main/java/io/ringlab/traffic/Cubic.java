package io.ringlab.traffic;

import java.util.Arrays;

import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Metrics;

/**
 * CUBIC as {@code net/ipv4/tcp_cubic.c} computes it (the form that passes the number of acknowledged packets and bounds
 * the growth to 1.5x per RTT, already in 3.19.8), in the kernel's own fixed-point arithmetic, per {@link Kernel}:
 * <ul>
 * <li>the window function {@code W(t) = C (t - K)^3 + W_max} with {@code C = bic_scale * 10 / 1024 = 410/1024}
 * (about 0.4) and time in units of 1/1024 s ({@code BICTCP_HZ} = 10), {@code K = cbrt(cube_factor * (W_max - cwnd))} with
 * {@code cube_factor = 2^40 / 410}; the target is evaluated one minimum RTT ahead ({@code t + delay_min}, converted with
 * {@code msecs_to_jiffies(delay_min >> 3)} in v3.19/v4.6 and {@code usecs_to_jiffies(delay_min)} in current) and the
 * window grows by one packet every {@code cnt = cwnd / (target - cwnd)} acknowledged packets ({@code bictcp_update});</li>
 * <li>multiplicative decrease {@code beta = 717/1024} (about 0.7) and fast convergence: after a loss below the previous
 * {@code W_max}, {@code W_max = cwnd * (1 + beta) / 2} ({@code bictcp_recalc_ssthresh});</li>
 * <li>the TCP-friendly region: an estimate of Reno's window ({@code tcp_cwnd}, one packet per {@code 8 / beta_scale} =
 * {@code 8/15} of a window of ACKs, {@code beta_scale = 8 (1024 + 717) / 3 / (1024 - 717) = 15}) bounds {@code cnt} from
 * above;</li>
 * <li>the first epoch after start or a timeout ({@code last_max_cwnd = 0}) grows at least 5 % per RTT ({@code cnt <= 20});
 * {@code cnt >= 2}; the time is the kernel's jiffies at {@code hz};</li>
 * <li>after idle (v4.6, current: {@code bictcp_cwnd_event(CA_EVENT_TX_START)}, commit 30927520dbae, v4.3) the epoch
 * start moves forward by the idle time, at most to now, so the window resumes the curve where it left it;</li>
 * <li>undo of a spurious reduction: {@code max(cwnd, loss_cwnd)} ({@code bictcp_undo_cwnd}, v3.19, v4.6; current:
 * {@code tcp_reno_undo_cwnd}, {@code max(cwnd, prior_cwnd)}, the same value: see {@link CongestionControl#lossCwnd});</li>
 * <li><b>HyStart</b> (property {@code hystart}, module parameter {@code hystart = 1} by default in every era,
 * {@code hystart_detect = 3}: both detectors, {@code hystart_low_window = 16}, {@code HYSTART_MIN_SAMPLES = 8}): slow
 * start ends ({@code ssthresh = cwnd}) on an ACK train or a delay increase within a round, counted in
 * {@code hystartTrainExits} ({@code LINUX_MIB_TCPHYSTARTTRAINDETECT}) and {@code hystartDelayExits}
 * ({@code LINUX_MIB_TCPHYSTARTDELAYDETECT}). A round starts at {@code bictcp_hystart_reset} ({@code .init}, a timeout,
 * and when an ACK passes {@code end_seq}), which records the clock as {@code round_start = last_ack} and
 * {@code end_seq = snd_nxt}. The samples are {@code bictcp_acked}'s, taken when {@code hystart}, in slow start and
 * {@code cwnd >= 16}, and not within 1 s ({@code HZ} jiffies) of an epoch start. Per era:
 * <table>
 * <caption>HyStart per kernel</caption>
 * <tr><th></th><th>v3.19, v4.6</th><th>current (6.12)</th></tr>
 * <tr><td>clock ({@code bictcp_clock})</td><td>milliseconds: {@code ktime_to_ms(ktime_get_real())} (HZ &lt; 1000) or
 * {@code jiffies_to_msecs(jiffies)}</td><td>microseconds: {@code tp->tcp_mstamp} ({@code bictcp_clock_us}, Eric Dumazet's
 * Dec 2019 series "tcp_cubic: switch bictcp_clock() to usec resolution", v5.6)</td></tr>
 * <tr><td>delay unit ({@code delay_min}, {@code curr_rtt})</td><td>1/8 ms: {@code (rtt_us << 3) / 1000}</td><td>us</td></tr>
 * <tr><td>train: ACK spacing</td><td>{@code hystart_ack_delta = 2} ms</td><td>{@code hystart_ack_delta_us = 2000}</td></tr>
 * <tr><td>train: length</td><td>{@code > delay_min >> 4}: half the minimum RTT, whole ms</td><td>{@code > (delay_min +
 * hystart_ack_delay) / 2}, not halved when paced ({@code sk_pacing_status}); {@code hystart_ack_delay = min(1 ms,
 * 4 * sk_gso_max_size / sk_pacing_rate)}, 0 without a rate (42f3a8aaae66 "tcp_cubic: tweak Hystart detection for short
 * RTT flows" and "tcp_cubic: make Hystart aware of pacing", v5.6)</td></tr>
 * <tr><td>delay threshold</td><td>{@code clamp(delay_min >> 3, 4 << 3, 16 << 3)} in 1/8 ms: RTT/8 within 4..16 ms</td>
 * <td>{@code clamp(delay_min >> 3, 4000, 16000)} us: the same, in us</td></tr>
 * <tr><td>{@code curr_rtt}</td><td>the minimum of the round's first 8 samples; the 9th and later compare it</td><td>the
 * minimum of all the round's samples (b344579ca847, Neal Cardwell, v5.8, "fix spurious HYSTART_DELAY exit upon drop in
 * min RTT")</td></tr>
 * <tr><td>round reset</td><td>in {@code bictcp_cong_avoid}, in slow start, when {@code after(ack, end_seq)}</td>
 * <td>in {@code hystart_update}, when {@code after(snd_una, end_seq)}, so only on a sample taken with {@code cwnd >= 16}
 * (4e1fddc98d25, Eric Dumazet, v5.16, "fix spurious Hystart ACK train detections for not-cwnd-limited flows"; 6.12.0
 * has not yet the 25c1a9ca53db fix of 2025 that resets regardless of the window)</td></tr>
 * <tr><td>after an exit</td><td>{@code found |= detector}; no detection until {@code bictcp_reset} (a timeout)</td>
 * <td>{@code found = 1}: the same</td></tr>
 * </table>
 * Both detectors run on the same sample: one sample can count in both counters (in every era).</li>
 * </ul>
 * Simplifications, stated: the cube root is exact (the kernel's {@code cubic_root} approximates it with a 64-entry table
 * and one Newton-Raphson step, average error 0.195 % by its comment: K, the time back to {@code W_max}, is off by that
 * much); an epoch that has not started is -1 rather than 0; the 32-bit clocks do not wrap (u32 microseconds wrap after
 * 71 minutes in the kernel, harmlessly for the signed differences it takes); the ms clock of v3.19/v4.6 is aligned with
 * virtual time 0 (the real-time clock's phase is unknown; it only moves which ACKs fall within 2 ms of each other);
 * {@code hystart_detect}, {@code hystart_low_window} and {@code hystart_ack_delta} are the module defaults, not
 * properties. Not thread-safe.
 *
 * @see <a href="https://www.rfc-editor.org/rfc/rfc8312">RFC 8312, CUBIC for Fast Long-Distance Networks</a>
 */
final class Cubic extends CongestionControl {
    /** {@code beta}: multiplicative decrease factor, scaled by {@link #BETA_SCALE}. */
    static final int BETA = 717;
    /** {@code BICTCP_BETA_SCALE}. */
    static final int BETA_SCALE = 1024;
    /** {@code bic_scale}: C = bic_scale * 10 / 1024. */
    static final int BIC_SCALE = 41;
    /** {@code BICTCP_HZ}: time in the cubic function is in units of 2^-10 s. */
    static final int BICTCP_HZ = 10;
    /** {@code cube_rtt_scale = bic_scale * 10}. */
    static final long CUBE_RTT_SCALE = BIC_SCALE * 10;
    /** {@code cube_factor = 2^(10 + 3 BICTCP_HZ) / (bic_scale * 10)}. */
    static final long CUBE_FACTOR = (1L << (10 + 3 * BICTCP_HZ)) / (BIC_SCALE * 10);
    /** {@code beta_scale = 8 (BETA_SCALE + beta) / 3 / (BETA_SCALE - beta)}: TCP-friendly growth, integer arithmetic. */
    static final int FRIENDLY_SCALE = 8 * (BETA_SCALE + BETA) / 3 / (BETA_SCALE - BETA);
    /** C as a real number, for documentation and tests: 410/1024. */
    static final double C = CUBE_RTT_SCALE / 1024.0;

    /** {@code HYSTART_ACK_TRAIN}, {@code HYSTART_DELAY}: the detectors, bits of {@code hystart_detect} and {@code found}. */
    static final int HYSTART_ACK_TRAIN = 0x1, HYSTART_DELAY = 0x2;
    /** {@code hystart_detect}'s default: both detectors. */
    static final int HYSTART_DETECT = HYSTART_ACK_TRAIN | HYSTART_DELAY;
    /** {@code hystart_low_window}: HyStart looks at samples only from this window on, packets. */
    static final int HYSTART_LOW_WINDOW = 16;
    /** {@code HYSTART_MIN_SAMPLES}: samples per round before the delay detector compares. */
    static final int HYSTART_MIN_SAMPLES = 8;
    /** {@code hystart_ack_delta} (v3.19, v4.6): ms; current's {@code hystart_ack_delta_us} is 2000 us, the same. */
    static final long HYSTART_ACK_DELTA_MS = 2, HYSTART_ACK_DELTA_US = 2000;
    /** {@code HYSTART_DELAY_MIN}, {@code HYSTART_DELAY_MAX} (v3.19, v4.6): 4 and 16 ms in 1/8 ms. */
    static final long HYSTART_DELAY_MIN_8MS = 4 << 3, HYSTART_DELAY_MAX_8MS = 16 << 3;
    /** {@code HYSTART_DELAY_MIN}, {@code HYSTART_DELAY_MAX} (current): 4000 and 16000 us. */
    static final long HYSTART_DELAY_MIN_US = 4000, HYSTART_DELAY_MAX_US = 16000;
    /** {@code USEC_PER_MSEC}: {@code hystart_ack_delay}'s cap, us. */
    static final long ACK_DELAY_CAP_US = 1000;

    private final int hz;
    /** The module parameter {@code hystart}. */
    final boolean hystart;
    /** {@code sk->sk_gso_max_size}, bytes (0 without GSO): {@code hystart_ack_delay}'s TSO cushion (current). */
    private final long gsoMaxSize;
    private final Sock sock;
    /** The microsecond clock ({@code tcp_mstamp}, {@code delay_min} in us) of current, or v3.19/v4.6's ms clock. */
    private final boolean usClock;
    private Metrics.Counter trainExits = new Count(), delayExits = new Count();

    private final int[] cnt;
    private final int[] lastMaxCwnd;
    private final int[] lastCwnd;
    private final long[] lastTime;
    private final int[] originPoint;
    /** K in units of 2^-10 s. */
    private final long[] bicK;
    /** {@code delay_min}: the minimum RTT seen, in 1/8 ms (v3.19, v4.6) or us (current); 0 before the first sample. */
    private final long[] delayMin;
    /** Jiffies at the start of the epoch, -1 when none has started. */
    private final long[] epochStart;
    private final int[] ackCnt;
    private final int[] tcpCwnd;
    /** HyStart's {@code found}: the detectors that fired since the last {@code bictcp_reset}. */
    private final int[] found;
    /** HyStart's {@code round_start}, {@code last_ack} ({@code bictcp_clock} units) and {@code end_seq} (bytes). */
    private final long[] roundStart, lastAck, endSeq;
    /** HyStart's {@code curr_rtt} (delay units) and {@code sample_cnt}. */
    private final long[] currRtt;
    private final int[] sampleCnt;

    /**
     * @param streams streams
     * @param initialCwnd first window, packets
     * @param initialSsthresh first threshold, packets, 0 for infinite (a route's {@code ssthresh} metric; the module
     *        parameter {@code initial_ssthresh}, which {@code bictcp_init} applies only without HyStart, is not modelled)
     * @param clamp the largest window, packets
     * @param hz the kernel's HZ: the clock of {@code bictcp_update} is jiffies
     * @param kernel the era
     * @param hystart the module parameter {@code hystart}
     * @param gsoMaxSize {@code sk_gso_max_size}, bytes, 0 without GSO
     * @param sock the sender's socket fields
     */
    Cubic(int streams, int initialCwnd, int initialSsthresh, int clamp, int hz, Kernel kernel, boolean hystart,
            long gsoMaxSize, Sock sock) {
        super(streams, initialCwnd, initialSsthresh, clamp, kernel);
        this.hz = hz;
        this.hystart = hystart;
        this.gsoMaxSize = gsoMaxSize;
        this.sock = sock;
        this.usClock = kernel == Kernel.CURRENT;
        cnt = new int[streams];
        lastMaxCwnd = new int[streams];
        lastCwnd = new int[streams];
        lastTime = new long[streams];
        originPoint = new int[streams];
        bicK = new long[streams];
        delayMin = new long[streams];
        epochStart = new long[streams];
        ackCnt = new int[streams];
        tcpCwnd = new int[streams];
        found = new int[streams];
        roundStart = new long[streams];
        lastAck = new long[streams];
        endSeq = new long[streams];
        currRtt = new long[streams];
        sampleCnt = new int[streams];
        Arrays.fill(epochStart, -1);
    }

    /**
     * Where the HyStart exits are counted (the element's counters {@code hystartTrainExits}, {@code hystartDelayExits});
     * until called, counters of this instance's own.
     */
    void countExits(Metrics.Counter train, Metrics.Counter delay) {
        this.trainExits = train;
        this.delayExits = delay;
    }

    @Override
    String name() {
        return "cubic";
    }

    /** Also the cubic state of each stream: epoch, origin point, K, minimum delay, the Reno estimate, HyStart's round. */
    @Override
    void exportState(ElementState out, String prefix) {
        super.exportState(out, prefix);
        out.put(prefix + ".cubicKernel", kernel.id);
        out.put(prefix + ".cubicCnt", cnt.clone());
        out.put(prefix + ".cubicLastMaxCwnd", lastMaxCwnd.clone());
        out.put(prefix + ".cubicLastCwnd", lastCwnd.clone());
        out.put(prefix + ".cubicLastTime", lastTime.clone());
        out.put(prefix + ".cubicOriginPoint", originPoint.clone());
        out.put(prefix + ".cubicK", bicK.clone());
        out.put(prefix + ".cubicDelayMin", delayMin.clone());
        out.put(prefix + ".cubicEpochStart", epochStart.clone());
        out.put(prefix + ".cubicAckCnt", ackCnt.clone());
        out.put(prefix + ".cubicTcpCwnd", tcpCwnd.clone());
        out.put(prefix + ".hystartFound", found.clone());
        out.put(prefix + ".hystartRoundStart", roundStart.clone());
        out.put(prefix + ".hystartLastAck", lastAck.clone());
        out.put(prefix + ".hystartEndSeq", endSeq.clone());
        out.put(prefix + ".hystartCurrRtt", currRtt.clone());
        out.put(prefix + ".hystartSampleCnt", sampleCnt.clone());
    }

    /** A predecessor of another kernel (its delay units and clock differ) or of before HyStart is refused. */
    @Override
    boolean importState(ElementState in, String prefix) {
        if (!kernel.id.equals(in.get(prefix + ".cubicKernel", String.class)) || !super.importState(in, prefix)) {
            return false;
        }
        Handovers.read(in, prefix + ".cubicCnt", cnt);
        Handovers.read(in, prefix + ".cubicLastMaxCwnd", lastMaxCwnd);
        Handovers.read(in, prefix + ".cubicLastCwnd", lastCwnd);
        Handovers.read(in, prefix + ".cubicLastTime", lastTime);
        Handovers.read(in, prefix + ".cubicOriginPoint", originPoint);
        Handovers.read(in, prefix + ".cubicK", bicK);
        Handovers.read(in, prefix + ".cubicDelayMin", delayMin);
        Handovers.read(in, prefix + ".cubicEpochStart", epochStart);
        Handovers.read(in, prefix + ".cubicAckCnt", ackCnt);
        Handovers.read(in, prefix + ".cubicTcpCwnd", tcpCwnd);
        Handovers.read(in, prefix + ".hystartFound", found);
        Handovers.read(in, prefix + ".hystartRoundStart", roundStart);
        Handovers.read(in, prefix + ".hystartLastAck", lastAck);
        Handovers.read(in, prefix + ".hystartEndSeq", endSeq);
        Handovers.read(in, prefix + ".hystartCurrRtt", currRtt);
        Handovers.read(in, prefix + ".hystartSampleCnt", sampleCnt);
        return true;
    }

    /** @return the kernel's jiffies at {@code nowPicos}, exactly {@code floor(now * hz / 10^12)}. */
    long jiffies(long nowPicos) {
        long seconds = nowPicos / 1_000_000_000_000L;
        long rest = nowPicos % 1_000_000_000_000L;
        return seconds * hz + rest * hz / 1_000_000_000_000L;
    }

    /** @return {@code bictcp_clock}: ms (v3.19, v4.6) or {@code bictcp_clock_us}: us (current). */
    long clock(long nowPicos) {
        return usClock ? nowPicos / 1_000_000L : nowPicos / 1_000_000_000L;
    }

    /** {@code bictcp_reset}: everything back to zero ({@code .init}, a timeout); not {@code loss_cwnd}. */
    private void reset(int s) {
        cnt[s] = 0;
        lastMaxCwnd[s] = 0;
        lastCwnd[s] = 0;
        lastTime[s] = 0;
        originPoint[s] = 0;
        bicK[s] = 0;
        delayMin[s] = 0;
        epochStart[s] = -1;
        ackCnt[s] = 0;
        tcpCwnd[s] = 0;
        found[s] = 0;
    }

    /** {@code bictcp_hystart_reset}: a new round from now to {@code snd_nxt}. */
    private void hystartReset(int s, long nowPicos) {
        roundStart[s] = lastAck[s] = clock(nowPicos);
        endSeq[s] = sock.sndNxt(s);
        currRtt[s] = usClock ? 0xFFFF_FFFFL : 0; // current: ~0U; before: 0, "none yet"
        sampleCnt[s] = 0;
    }

    /** {@code bictcp_init}. */
    @Override
    void init(int s, long nowPicos) {
        reset(s);
        lossCwnd[s] = 0;
        if (hystart) {
            hystartReset(s, nowPicos);
        }
    }

    @Override
    void congAvoid(int s, long ack, int acked, long nowPicos) {
        if (inSlowStart(s)) {
            if (hystart && !usClock && ack > endSeq[s]) {
                hystartReset(s, nowPicos); // v3.19, v4.6: after(ack, ca->end_seq) in bictcp_cong_avoid
            }
            acked = slowStart(s, acked);
            if (acked == 0) {
                return;
            }
        }
        update(s, cwnd[s], acked, jiffies(nowPicos));
        congAvoidAi(s, cnt[s], acked);
    }

    /** {@code bictcp_update}: computes {@code cnt}, the packets to acknowledge per increase of one packet. */
    void update(int s, int w, int acked, long now) {
        ackCnt[s] += acked;
        if (lastCwnd[s] == w && now - lastTime[s] <= hz / 32) {
            return;
        }
        // the cubic function updates cnt at most once per jiffy; every reduction ends the epoch and forces a recalculation
        if (!(epochStart[s] >= 0 && now == lastTime[s])) {
            lastCwnd[s] = w;
            lastTime[s] = now;
            if (epochStart[s] < 0) {
                epochStart[s] = now;
                ackCnt[s] = acked;
                tcpCwnd[s] = w;
                if (lastMaxCwnd[s] <= w) {
                    bicK[s] = 0;
                    originPoint[s] = w;
                } else {
                    bicK[s] = cubeRoot(CUBE_FACTOR * (lastMaxCwnd[s] - w));
                    originPoint[s] = lastMaxCwnd[s];
                }
            }
            // t in 2^-10 s, one minimum RTT ahead
            long t = now - epochStart[s] + delayMinJiffies(s);
            t = (t << BICTCP_HZ) / hz;
            long offs = Math.min(Math.abs(t - bicK[s]), 1L << 17); // 128 s: keeps offs^3 * 410 inside a long
            long delta = (CUBE_RTT_SCALE * offs * offs * offs) >> (10 + 3 * BICTCP_HZ);
            long target = t < bicK[s] ? originPoint[s] - delta : originPoint[s] + delta;
            if (target > w) {
                cnt[s] = (int) (w / (target - w));
            } else {
                cnt[s] = 100 * w; // very small increment
            }
            if (lastMaxCwnd[s] == 0 && cnt[s] > 20) {
                cnt[s] = 20; // the initial growth may be too conservative while the bandwidth is unknown: 5 % per RTT
            }
        }
        // TCP friendliness: Reno's window estimate grows one packet per (8 / beta_scale) * cwnd ACKed packets
        int d = (w * FRIENDLY_SCALE) >> 3;
        if (d > 0) {
            while (ackCnt[s] > d) {
                ackCnt[s] -= d;
                tcpCwnd[s]++;
            }
        }
        if (tcpCwnd[s] > w) {
            int maxCnt = w / (tcpCwnd[s] - w);
            if (cnt[s] > maxCnt) {
                cnt[s] = maxCnt;
            }
        }
        cnt[s] = Math.max(cnt[s], 2); // at most 1 packet per 2 ACKed: 1.5x per RTT
    }

    @Override
    int recalcSsthresh(int s, long nowPicos) {
        epochStart[s] = -1; // end of the epoch
        int w = cwnd[s];
        if (w < lastMaxCwnd[s]) {
            lastMaxCwnd[s] = (int) ((long) w * (BETA_SCALE + BETA) / (2 * BETA_SCALE)); // fast convergence
        } else {
            lastMaxCwnd[s] = w;
        }
        lossCwnd[s] = w;
        return Math.max((int) ((long) w * BETA / BETA_SCALE), 2);
    }

    /** {@code bictcp_undo_cwnd} (v3.19, v4.6) and {@code tcp_reno_undo_cwnd} (current): the larger window. */
    @Override
    int undoCwnd(int s) {
        return Math.max(cwnd[s], lossCwnd[s]);
    }

    /** {@code bictcp_state}: a timeout resets the cubic state and starts a HyStart round. */
    @Override
    void setState(int s, int caState, long nowPicos) {
        if (caState == CA_LOSS) {
            reset(s);
            hystartReset(s, nowPicos);
        }
    }

    /** {@code bictcp_cwnd_event(CA_EVENT_TX_START)} (v4.3+): the epoch moves forward by the idle time, at most to now. */
    @Override
    void txStart(int s, long lsndtimePicos, long nowPicos) {
        if (kernel == Kernel.V3_19) {
            return; // no .cwnd_event in 3.19's cubictcp
        }
        long now = jiffies(nowPicos);
        long delta = now - jiffies(lsndtimePicos);
        if (epochStart[s] >= 0 && delta > 0) {
            epochStart[s] = Math.min(epochStart[s] + delta, now);
        }
    }

    /** {@code bictcp_acked}: the minimum delay, and HyStart's samples. */
    @Override
    void pktsAcked(int s, int ackedPackets, long rttPicos, long nowPicos) {
        if (rttPicos < 0) {
            return; // no sample
        }
        long now = jiffies(nowPicos);
        if (epochStart[s] >= 0 && now - epochStart[s] < hz) {
            return; // discard delay samples right after fast recovery
        }
        long rttUs = rttPicos / 1_000_000L;
        long delay = Math.max(1, usClock ? rttUs : (rttUs << 3) / 1000);
        if (delayMin[s] == 0 || delayMin[s] > delay) {
            delayMin[s] = delay;
        }
        if (usClock) {
            // 6.12.0 cubictcp_acked: !found && in slow start && hystart && cwnd >= hystart_low_window
            if (found[s] == 0 && inSlowStart(s) && hystart && cwnd[s] >= HYSTART_LOW_WINDOW) {
                hystartUpdateUs(s, delay, nowPicos);
            }
        } else if (hystart && inSlowStart(s) && cwnd[s] >= HYSTART_LOW_WINDOW) {
            hystartUpdateMs(s, delay, nowPicos);
        }
    }

    /** {@code hystart_update} of v3.19 and v4.6: the ms clock, delays in 1/8 ms. */
    private void hystartUpdateMs(int s, long delay, long nowPicos) {
        if ((found[s] & HYSTART_DETECT) != 0) {
            return;
        }
        long now = clock(nowPicos);
        if (now - lastAck[s] <= HYSTART_ACK_DELTA_MS) { // ACK-train detection
            lastAck[s] = now;
            if (now - roundStart[s] > delayMin[s] >> 4) { // a train of half the minimum RTT, in ms
                found[s] |= HYSTART_ACK_TRAIN;
                exit(s, trainExits);
            }
        }
        if (sampleCnt[s] < HYSTART_MIN_SAMPLES) { // the minimum delay of the round's first samples
            if (currRtt[s] == 0 || currRtt[s] > delay) {
                currRtt[s] = delay;
            }
            sampleCnt[s]++;
        } else if (currRtt[s] > delayMin[s]
                + Math.clamp(delayMin[s] >> 3, HYSTART_DELAY_MIN_8MS, HYSTART_DELAY_MAX_8MS)) {
            found[s] |= HYSTART_DELAY;
            exit(s, delayExits);
        }
    }

    /** {@code hystart_update} of 6.12: the us clock, the round reset, the pacing-aware train, every sample in curr_rtt. */
    private void hystartUpdateUs(int s, long delay, long nowPicos) {
        if (sock.sndUna(s) > endSeq[s]) {
            hystartReset(s, nowPicos);
        }
        long now = clock(nowPicos);
        if (now - lastAck[s] <= HYSTART_ACK_DELTA_US) { // ACK-train detection
            lastAck[s] = now;
            long threshold = delayMin[s] + ackDelay(s);
            if (!sock.paced(s)) {
                threshold >>= 1; // unpaced: a train of half the minimum RTT (pacing may delay packets up to RTT/2)
            }
            if (now - roundStart[s] > threshold) {
                found[s] = 1;
                exit(s, trainExits);
            }
        }
        if (currRtt[s] > delay) {
            currRtt[s] = delay;
        }
        if (sampleCnt[s] < HYSTART_MIN_SAMPLES) {
            sampleCnt[s]++;
        } else if (currRtt[s] > delayMin[s]
                + Math.clamp(delayMin[s] >> 3, HYSTART_DELAY_MIN_US, HYSTART_DELAY_MAX_US)) {
            found[s] = 1;
            exit(s, delayExits);
        }
    }

    /** {@code hystart_ack_delay}: the TSO/GRO cushion, {@code min(1 ms, 4 sk_gso_max_size / sk_pacing_rate)}, us. */
    long ackDelay(int s) {
        long rate = sock.pacingRate(s);
        if (rate <= 0) {
            return 0;
        }
        return Math.min(ACK_DELAY_CAP_US, gsoMaxSize * 4 * 1_000_000L / rate);
    }

    /** HyStart found the exit: slow start ends at the current window. */
    private void exit(int s, Metrics.Counter counter) {
        counter.increment();
        ssthresh[s] = cwnd[s];
    }

    /** {@code msecs_to_jiffies(delay_min >> 3)} (v3.19, v4.6) or {@code usecs_to_jiffies(delay_min)}: both round up. */
    private long delayMinJiffies(int s) {
        if (usClock) {
            return (delayMin[s] * hz + 999_999) / 1_000_000;
        }
        return ((delayMin[s] >> 3) * hz + 999) / 1000;
    }

    /**
     * @param a a non-negative number
     * @return {@code floor(cbrt(a))}, exact
     */
    static long cubeRoot(long a) {
        long r = (long) Math.cbrt((double) a);
        while (r > 0 && r * r * r > a) {
            r--;
        }
        while ((r + 1) * (r + 1) * (r + 1) <= a) {
            r++;
        }
        return r;
    }

    /** @return {@code bic_origin_point}, the W_max of the current epoch, packets; 0 before the first epoch. */
    int originPoint(int s) {
        return originPoint[s];
    }

    /** @return {@code last_max_cwnd}, packets. */
    int lastMaxCwnd(int s) {
        return lastMaxCwnd[s];
    }

    /** @return K of the current epoch in seconds. */
    double kSeconds(int s) {
        return bicK[s] / 1024.0;
    }

    /** @return the start of the current epoch in seconds of virtual time, or -1 when no epoch runs. */
    double epochStartSeconds(int s) {
        return epochStart[s] < 0 ? -1 : (double) epochStart[s] / hz;
    }

    /** @return the minimum RTT in seconds, 0 before the first sample. */
    double delayMinSeconds(int s) {
        return usClock ? delayMin[s] / 1e6 : delayMin[s] / 8e3;
    }

    /** @return {@code cnt}: packets to acknowledge per increase of one packet. */
    int cnt(int s) {
        return cnt[s];
    }

    /** @return HyStart's {@code end_seq}, bytes. */
    long hystartEndSeq(int s) {
        return endSeq[s];
    }

    /** @return HyStart's {@code sample_cnt}. */
    int hystartSamples(int s) {
        return sampleCnt[s];
    }

    /** @return the HyStart exits by ACK train counted so far. */
    long trainExits() {
        return trainExits.get();
    }

    /** @return the HyStart exits by delay counted so far. */
    long delayExits() {
        return delayExits.get();
    }

    /** A counter of this instance's own, until {@link #countExits}. */
    private static final class Count implements Metrics.Counter {
        private long n;

        @Override
        public void increment() {
            n++;
        }

        @Override
        public void add(long delta) {
            n += delta;
        }

        @Override
        public long get() {
            return n;
        }
    }
}
