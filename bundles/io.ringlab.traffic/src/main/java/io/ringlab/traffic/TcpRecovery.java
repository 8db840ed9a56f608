package io.ringlab.traffic;

import io.ringlab.buffer.api.Buffer;

/**
 * ACK processing and loss recovery of one {@link TcpSock}, per {@link Kernel}: {@code tcp_ack},
 * {@code tcp_sacktag_write_queue}, {@code tcp_clean_rtx_queue}, {@code tcp_fastretrans_alert} and its helpers
 * ({@code tcp_time_to_recover}, {@code tcp_update_scoreboard}, {@code tcp_mark_head_lost}, the {@code tcp_try_undo_*}
 * paths, {@code tcp_process_loss} with F-RTO), PRR ({@code tcp_cwnd_reduction}, each era's form), RACK
 * ({@code tcp_rack_mark_lost}, the reordering timer), TLP ({@code tcp_schedule_loss_probe}, {@code tcp_send_loss_probe},
 * {@code tcp_process_tlp_ack}), early retransmit (v3.19, v4.6), the RTO ({@code tcp_retransmit_timer},
 * {@code tcp_enter_loss}) and {@code tcp_xmit_retransmit_queue}; all in net/ipv4/tcp_input.c, tcp_output.c,
 * tcp_timer.c and tcp_recovery.c of the release. NewReno ({@code tcp_is_reno}) is what a connection without SACK gets.
 * <p>
 * Not modelled: ECN, SACK reneging ({@code tcp_check_sack_reneging}), forward retransmission (v3.19/v4.6,
 * {@code tcp_can_forward_retransmit}: only when nothing new may be sent), thin-stream rules, MTU probing, RACK's
 * adaptive reordering window steps ({@code reo_wnd_steps}); the DSACK checks of {@code tcp_check_dsack} are reduced to
 * "the first block lies below the cumulative ACK, or inside the second block". Not thread-safe.
 */
final class TcpRecovery {
    // the flags tcp_ack collects (include/net/tcp.h FLAG_*)
    static final int DATA = 0x01, WIN_UPDATE = 0x02, DATA_ACKED = 0x04, RETRANS_DATA_ACKED = 0x08, SYN_ACKED = 0x10,
            DATA_SACKED = 0x20, ECE = 0x40, LOST_RETRANS = 0x80, SND_UNA_ADVANCED = 0x400, DSACKING_ACK = 0x800,
            ORIG_SACK_ACKED = 0x200;
    static final int ACKED = DATA_ACKED | SYN_ACKED;
    static final int NOT_DUP = DATA | WIN_UPDATE | ACKED;
    static final int FORWARD_PROGRESS = ACKED | DATA_SACKED;
    /** {@code REXMIT_NONE}, {@code REXMIT_LOST}, {@code REXMIT_NEW} of tcp_xmit_recovery. */
    static final int REXMIT_NONE = 0, REXMIT_LOST = 1, REXMIT_NEW = 2;
    /** {@code TCP_MAX_REORDERING} (127, v3.19) and {@code sysctl_tcp_max_reordering} (300, v4.6+). */
    static final int MAX_REORDERING_319 = 127, MAX_REORDERING = 300;

    private final TcpSock sk;
    private final RtxQueue q;
    private final Kernel k;
    /** What this ACK leaves {@link #xmitRecovery} to retransmit ({@code rexmit} of tcp_ack: a {@code REXMIT_*}). */
    private int rexmit;

    TcpRecovery(TcpSock sk) {
        this.sk = sk;
        this.q = sk.q;
        this.k = sk.cfg.kernel;
    }

    private boolean isReno() {
        return !sk.sackOk;
    }

    private boolean rackOn() {
        return sk.cfg.rack && sk.sackOk;
    }

    private boolean fackOn() {
        return sk.fack && sk.sackOk;
    }

    // ================================================================== tcp_ack

    /** {@code tcp_ack}: processes the ACK field and SACK blocks of an arriving segment. */
    void ack(Buffer b) {
        long ack = b.ack();
        long priorUna = sk.sndUna;
        int flag = 0;
        RtxQueue.SackTag t = sk.tag;
        t.reset(sk.now(), sk.minRttUs() == Long.MAX_VALUE ? 0 : sk.minRttUs() * 1_000_000L);
        int priorSacked = q.sackedOut;
        int priorPacketsOut = q.packetsOut();
        int priorFackets = q.facketsOut;
        long priorDelivered = sk.delivered;
        if (ack < priorUna) { // old ACK: only its SACK information counts
            if (b.sackBlocks() > 0 && sk.sackOk) {
                flag |= sacktag(b, priorUna);
                sk.delivered += t.newlySacked;
                rexmit = REXMIT_NONE;
                fastretransAlert(false, flag, priorPacketsOut - priorSacked);
                xmitRecovery();
            }
            return;
        }
        if (ack > sk.sndNxt) {
            return; // acknowledges what was never sent (RFC 793 §3.9): discarded
        }
        if (k != Kernel.CURRENT && (sk.pending == TcpSock.T_EARLY_RETRANS || sk.pending == TcpSock.T_LOSS_PROBE)) {
            sk.rearmRto(); // v3.19 / v4.6 tcp_ack; current kernels restart the timers only as FLAG_SET_XMIT_TIMER says
        }
        if (ack > priorUna) {
            flag |= SND_UNA_ADVANCED;
            sk.retransmits = 0;
        }
        // tcp_ack_update_window
        long nwin = (long) b.tcpWindow() << sk.sndWscale;
        if (nwin > sk.maxWindow) {
            sk.maxWindow = nwin;
        }
        long ackSeq = b.seq();
        if (ack > priorUna || ackSeq > sk.sndWl1 || (ackSeq == sk.sndWl1 && nwin > sk.sndWnd)) {
            flag |= WIN_UPDATE;
            sk.sndWl1 = ackSeq;
            if (k != Kernel.V3_19 && nwin != sk.sndWnd && sk.sndNxt < sk.writeSeq) {
                sk.sndWnd = nwin;
                sk.idleCheck(); // tcp_ack_update_window (v4.6+): a new window with data queued
            }
            sk.sndWnd = nwin;
        }
        int hdr = b.tcpHeaderBytes() > 0 ? b.tcpHeaderBytes() : Tcp.HEADERS - Tcp.L2_L3;
        if (b.length() - Tcp.L2_L3 - hdr > 0 || (b.flags() & Buffer.TCP_FIN) != 0) {
            flag |= DATA;
        }
        if (b.sackBlocks() > 0 && sk.sackOk) {
            flag |= sacktag(b, priorUna);
        }
        // tcp_clean_rtx_queue
        int facketsBeforeClean = q.facketsOut;
        sk.sndUna = ack;
        int acked = q.ackTo(ack, t);
        if (acked > 0 || (ack > priorUna && q.packetsOut() == 0)) {
            flag |= DATA_ACKED;
            if (t.retransAcked) {
                flag |= RETRANS_DATA_ACKED;
            }
            if (t.origAcked && ack <= sk.highSeq) {
                flag |= ORIG_SACK_ACKED;
            }
        }
        if (sk.finSent && ack == sk.sndNxt && priorUna < ack) {
            sk.finAcked();
        }
        if (ack > priorUna) {
            // data bytes: the FIN's sequence number is not data
            long bytes = ack - priorUna - (sk.finSent && ack == sk.sndNxt && sk.finQueued ? 1 : 0);
            sk.bytesAcked += bytes;
            sk.ackEvents++;
            sk.owner.event(TcpEvents.ACKED_BYTES, bytes);
        }
        ackUpdateRtt(flag, t);
        if ((flag & ACKED) != 0) {
            if (isReno()) {
                // tcp_remove_reno_sacks: the dupACKs stood for the segments now acknowledged
                q.sackedOut = Math.max(0, q.sackedOut - Math.max(0, acked - 1));
            } else if (t.holeFilled >= 0 && t.holeFilled < priorFackets) {
                // tcp_clean_rtx_queue: "Non-retransmitted hole got filled? That's reordering" (v3.19/v4.6
                // tcp_update_reordering(fackets_out - reord), current tcp_check_sack_reordering(reord, 0) with the
                // degree (fack - low_seq) / mss: the same count of segments)
                updateReordering(facketsBeforeClean - t.holeFilled, false);
            }
            // tcp_clean_rtx_queue's tcp_rearm_rto; current kernels: FLAG_SET_XMIT_TIMER, tcp_set_xmit_timer (a loss
            // probe if one may be scheduled, otherwise the RTO)
            if (k != Kernel.CURRENT || !scheduleLossProbe(true)) {
                sk.rearmRto();
            }
        }
        // .pkts_acked with ca_rtt_us: the most recently sent newly acknowledged segment (none if any was retransmitted),
        // or from v4.6 the most recently sent newly SACKed one (CongestionControl's contract)
        long caRtt = -1;
        if (t.lastAckt >= 0 && (flag & RETRANS_DATA_ACKED) == 0) {
            caRtt = sk.now() - t.lastAckt;
            sk.owner.ackRtt(sk, caRtt);
        } else if (k != Kernel.V3_19 && t.lastSackt >= 0 && (flag & RETRANS_DATA_ACKED) == 0) {
            caRtt = sk.now() - t.lastSackt;
        }
        if ((flag & ACKED) != 0 || (k != Kernel.V3_19 && t.newlySacked > 0)) {
            sk.cc.pktsAcked(sk.s, acked, caRtt, sk.now());
        }
        rackAdvanceFromTag(t);
        // tp->delivered (v4.6+, what tcp_cong_control and PRR are given): a SACK flow counts each segment once, when it
        // is SACKed (tcp_sacktag_one) or, never SACKed, when it is cumulatively acknowledged (tcp_clean_rtx_queue);
        // a Reno flow counts its dupACKs as they come (tcp_add_reno_sack) and a cumulative ACK as
        // max(acked - sacked_out, 1) (tcp_remove_reno_sacks: one ACK fills the hole, the rest the dupACKs stood for)
        if (isReno()) {
            sk.delivered += acked > 0 ? Math.max(acked - priorSacked, 1) : 0;
        } else {
            sk.delivered += t.newlyAcked + t.newlySacked;
        }
        rexmit = REXMIT_NONE;
        if (k == Kernel.CURRENT && sk.tlpHighSeq != 0) {
            processTlpAck(ack, flag); // current: before the state machine
        }
        if (k == Kernel.V3_19 && mayRaiseCwnd(flag) && sk.isCwndLimited()) {
            sk.cc.congAvoid(sk.s, ack, acked, sk.now()); // v3.19: cong_avoid before the state machine
        }
        if (isDubious(flag)) {
            boolean dup = (flag & (SND_UNA_ADVANCED | NOT_DUP)) == 0;
            if (dup) {
                sk.owner.event(TcpEvents.DUP_ACKS, 1);
            }
            fastretransAlert(dup, flag, priorPacketsOut - priorSacked);
        }
        if (k != Kernel.CURRENT && sk.tlpHighSeq != 0) {
            processTlpAck(ack, flag); // v3.19, v4.6: after it
        }
        if (k != Kernel.V3_19) {
            congControl(ack, (int) (sk.delivered - priorDelivered), flag); // v4.6+: tcp_cong_control after it
        }
        if (k != Kernel.CURRENT && sk.pending == TcpSock.T_RETRANS) {
            scheduleLossProbe(false);
        }
        xmitRecovery();
    }



    private boolean isDubious(int flag) {
        int caAlert = DATA_SACKED | ECE | (k == Kernel.CURRENT ? DSACKING_ACK : 0);
        return (flag & NOT_DUP) == 0 || (flag & caAlert) != 0 || sk.caState != TcpSock.CA_OPEN;
    }

    /** {@code tcp_may_raise_cwnd}. */
    private boolean mayRaiseCwnd(int flag) {
        if (sk.inCwndReduction()) {
            return false;
        }
        if (sk.reordering > sk.cfg.reordering) {
            return (flag & FORWARD_PROGRESS) != 0;
        }
        return (flag & DATA_ACKED) != 0;
    }

    /** {@code tcp_cong_control} (v4.6+): PRR in a reduction, otherwise the congestion control's growth. */
    private void congControl(long ack, int ackedSacked, int flag) {
        if (sk.inCwndReduction()) {
            cwndReduction(ackedSacked, flag);
        } else if (mayRaiseCwnd(flag) && sk.isCwndLimited()) {
            sk.cc.congAvoid(sk.s, ack, ackedSacked, sk.now());
        }
    }

    /** {@code tcp_ack_update_rtt}: the ACK's sample (Karn), else the SACK's, else the echoed timestamp (RTTM). */
    private void ackUpdateRtt(int flag, RtxQueue.SackTag t) {
        long now = sk.now();
        long rttUs = -1;
        if (t.firstAckt >= 0 && (flag & RETRANS_DATA_ACKED) == 0) {
            rttUs = (now - t.firstAckt) / 1_000_000L; // seq_rtt_us
        }
        if (rttUs < 0 && t.firstSackt >= 0) {
            rttUs = (now - t.firstSackt) / 1_000_000L; // sack_rtt_us (v3.15+)
        }
        if (rttUs < 0 && sk.sawTs && sk.rcvTsecr != 0 && (flag & ACKED) != 0) {
            rttUs = (sk.tsNow() - sk.rcvTsecr) * sk.cfg.tsTickPicos() / 1_000_000L;
        }
        if (rttUs >= 0) {
            sk.rttSample(rttUs);
        }
    }

    /** {@code tcp_sacktag_write_queue}: the blocks of the ACK, D-SACK first if it is one. */
    private int sacktag(Buffer b, long priorUna) {
        RtxQueue.SackTag t = sk.tag;
        int flag = 0;
        int n = b.sackBlocks();
        int first = 0;
        // tcp_check_dsack: a first block below the cumulative ACK, or inside the second, reports a duplicate
        long s0 = b.sackStart(0), e0 = b.sackEnd(0);
        boolean dsack = s0 < b.ack() || (n > 1 && b.sackStart(1) <= s0 && e0 <= b.sackEnd(1));
        if (dsack) {
            flag |= DSACKING_ACK;
            sk.owner.event(TcpEvents.DSACKS_RECEIVED, 1);
            if (sk.undoMarker != 0 && sk.undoRetrans > 0 && e0 > sk.undoMarker) {
                sk.undoRetrans--; // a retransmission was not needed: the original arrived too
            }
            first = 1;
        }
        int before = t.newlySacked;
        for (int i = first; i < n; i++) {
            long st = Math.max(b.sackStart(i), priorUna), en = b.sackEnd(i);
            if (en <= st || en > sk.sndNxt) {
                continue; // tcp_is_sackblock_valid: outside the window
            }
            q.sacktag(st, en, t);
        }
        if (t.newlySacked > before) {
            flag |= DATA_SACKED;
        }
        if (t.origSacked) {
            flag |= ORIG_SACK_ACKED;
        }
        if (t.reord >= 0 && t.reord < q.facketsOut && (sk.caState != TcpSock.CA_LOSS || sk.undoMarker != 0)) {
            updateReordering(q.facketsOut - t.reord, false);
        }
        return flag;
    }

    /** RACK's {@code tcp_rack_advance} with the most recently sent segment this ACK delivered. */
    private void rackAdvanceFromTag(RtxQueue.SackTag t) {
        if (t.rackXmit < 0 || !sk.cfg.rack) {
            return;
        }
        if (k == Kernel.CURRENT) {
            // v4.18+ tcp_rack_advance: every segment it takes sets rack.advanced and rack.rtt_us (the last one wins);
            // only a more recently sent one moves rack.mstamp and rack.end_seq
            sk.rackRttUs = (sk.now() - t.lastAcceptedXmit) / 1_000_000L;
            sk.rackAdvanced = true;
        }
        if (sk.rackXmit >= 0 && !(t.rackXmit > sk.rackXmit || (t.rackXmit == sk.rackXmit && t.rackEnd > sk.rackEnd))) {
            return;
        }
        if (k != Kernel.CURRENT) {
            sk.rackRttUs = (sk.now() - t.rackXmit) / 1_000_000L; // v4.10-4.17: only for the most recently sent
        }
        sk.rackXmit = t.rackXmit;
        sk.rackEnd = t.rackEnd;
        sk.rackAdvanced = true;
    }

    /**
     * {@code tcp_update_reordering} (v3.19, v4.6) / {@code tcp_check_sack_reordering} (current): a higher reordering
     * degree raises dupthresh and disables FACK; any reordering disables early retransmit and widens RACK's window.
     */
    private void updateReordering(int metric, boolean ts) {
        if (metric > sk.reordering) {
            sk.reordering = Math.min(k == Kernel.V3_19 ? MAX_REORDERING_319 : MAX_REORDERING, metric);
            sk.owner.event(TcpEvents.REORDERING, 1);
            sk.fack = false; // tcp_disable_fack
        }
        if (metric > 0) {
            sk.earlyRetransOn = false; // tcp_disable_early_retrans
        }
        // RACK's record that reordering was seen: v4.6-v4.17 tp->rack.reord = 1 at the end of tcp_update_reordering,
        // v4.18+ tp->reord_seen++ in tcp_check_sack_reordering; both whether or not the degree rose
        sk.rackReord = true;
    }

    // ================================================================== tcp_fastretrans_alert

    /**
     * {@code tcp_fastretrans_alert}: the congestion-state machine run on dubious ACKs.
     *
     * @param priorUnsacked v3.19's {@code prior_unsacked} ({@code packets_out - sacked_out} before the ACK)
     */
    private void fastretransAlert(boolean dup, int flag, int priorUnsacked) {
        boolean doLost = dup || ((flag & DATA_SACKED) != 0 && (rackOn() && k == Kernel.CURRENT
                ? false : facketsOrSacked() > sk.reordering));
        if (q.packetsOut() == 0 && q.sackedOut > 0) {
            q.sackedOut = 0;
        }
        // D. state exit conditions, when high_seq is acknowledged
        if (sk.caState == TcpSock.CA_OPEN) {
            sk.retransStamp = 0;
        } else if (sk.sndUna >= sk.highSeq) {
            if (sk.caState == TcpSock.CA_CWR) {
                if (sk.sndUna != sk.highSeq) {
                    endCwndReduction();
                    setState(TcpSock.CA_OPEN);
                }
            } else if (sk.caState == TcpSock.CA_RECOVERY) {
                if (isReno()) {
                    q.resetRenoSack();
                }
                if (tryUndoRecovery()) {
                    return;
                }
                endCwndReduction();
            }
        }
        if (k == Kernel.V4_6 && rackOn() && rackMarkLost46()) {
            flag |= LOST_RETRANS; // v4.4-4.9: RACK only once recovery has started (tcp_rack_mark_lost)
        }
        // E. process the state
        switch (sk.caState) {
            case TcpSock.CA_RECOVERY -> {
                if ((flag & SND_UNA_ADVANCED) == 0) {
                    if (isReno() && dup) {
                        sk.delivered += q.addRenoSack();
                    }
                } else {
                    if (tryUndoPartial(priorUnsacked)) {
                        return;
                    }
                    doLost = isReno() || (!(rackOn() && k == Kernel.CURRENT) && facketsOrSacked() > sk.reordering);
                }
                if (tryUndoDsack()) {
                    tryKeepOpen();
                    return;
                }
                if (k == Kernel.CURRENT) {
                    identifyLoss(flag);
                }
                if (k == Kernel.V3_19) {
                    finish(doLost, false, priorUnsacked);
                    return;
                }
            }
            case TcpSock.CA_LOSS -> {
                processLoss(flag, dup);
                if (k == Kernel.V3_19) {
                    if (sk.caState != TcpSock.CA_OPEN) {
                        return;
                    }
                    openOrDisorder(flag, dup, priorUnsacked, doLost);
                    return;
                }
                if (k == Kernel.CURRENT) {
                    identifyLoss(flag);
                }
                if (sk.caState != TcpSock.CA_OPEN && (flag & LOST_RETRANS) == 0) {
                    return;
                }
                openOrDisorder(flag, dup, priorUnsacked, doLost);
                return;
            }
            default -> {
                openOrDisorder(flag, dup, priorUnsacked, doLost);
                return;
            }
        }
        if (doLost && !(rackOn() && k == Kernel.CURRENT)) {
            updateScoreboard(false);
        }
        rexmit = REXMIT_LOST;
    }

    /** The {@code default:} branch of E (Open, Disorder, CWR, and Loss once it has ended). */
    private void openOrDisorder(int flag, boolean dup, int priorUnsacked, boolean doLost) {
        if (isReno()) {
            if ((flag & SND_UNA_ADVANCED) != 0) {
                q.resetRenoSack();
            }
            if (dup) {
                sk.delivered += q.addRenoSack();
            }
        }
        if (sk.caState <= TcpSock.CA_DISORDER) {
            tryUndoDsack();
        }
        if (k == Kernel.CURRENT) {
            identifyLoss(flag);
        }
        if (!timeToRecover(flag)) {
            tryToOpen(flag, priorUnsacked);
            return;
        }
        enterRecovery();
        if (k == Kernel.V3_19) {
            finish(doLost, true, priorUnsacked);
            return;
        }
        if (doLost && !(rackOn() && k == Kernel.CURRENT)) {
            updateScoreboard(true);
        }
        rexmit = REXMIT_LOST;
    }

    /** v3.19's tail of the state machine: mark, PRR, retransmit, all inside {@code tcp_fastretrans_alert}. */
    private void finish(boolean doLost, boolean fastRexmit, int priorUnsacked) {
        if (doLost) {
            updateScoreboard(fastRexmit);
        }
        cwndReduction319(priorUnsacked, fastRexmit);
        rexmit = REXMIT_NONE;
        xmitRetransmitQueue();
    }

    /** {@code tcp_identify_packet_loss} (current): NewReno's head marking, or RACK. */
    private void identifyLoss(int flag) {
        if (q.packetsOut() == 0) {
            return;
        }
        if (isReno()) {
            if ((flag & SND_UNA_ADVANCED) != 0 && sk.caState == TcpSock.CA_RECOVERY || q.sackedOut + 1 > sk.reordering) {
                // tcp_newreno_mark_lost: the head is lost after dupthresh dupACKs or on a partial ACK
                if (q.packetsOut() > 0 && !q.has(0, RtxQueue.LOST)) {
                    if (q.sackedOut + 1 >= sk.reordering || (flag & SND_UNA_ADVANCED) != 0) {
                        q.markLost(0);
                    }
                }
            }
        } else if (rackOn()) {
            rackMarkLost();
        }
    }

    private int facketsOrSacked() {
        return fackOn() ? q.facketsOut : q.sackedOut + 1; // tcp_dupack_heuristics
    }

    /** {@code tcp_time_to_recover}. */
    private boolean timeToRecover(int flag) {
        if (q.lostOut > 0) {
            return true; // the loss is proven
        }
        if (k == Kernel.CURRENT) {
            return !rackOn() && facketsOrSacked() > sk.reordering;
        }
        if (facketsOrSacked() > sk.reordering) {
            return true;
        }
        int packetsOut = q.packetsOut();
        if (packetsOut <= sk.reordering && q.sackedOut >= Math.max(packetsOut / 2, sk.cfg.reordering) && !maySendNow()) {
            return true; // nothing more to send: limited by the window or the application
        }
        if (sk.earlyRetransOn && sk.sackOk && q.retransOut == 0 && q.sackedOut > 0 && packetsOut >= q.sackedOut + 1
                && packetsOut < 4 && !maySendNow()) {
            return !pauseEarlyRetransmit(flag); // RFC 5827 with mitigation A.3: delayed by max(RTT/4, 2 ms)
        }
        return false;
    }

    /** {@code tcp_may_send_now}: new data that the windows and Nagle allow. */
    private boolean maySendNow() {
        long left = sk.writeSeq - sk.sndNxt;
        if (left <= 0 && !(sk.finQueued && !sk.finSent)) {
            return false;
        }
        int len = (int) Math.min(sk.mssCache, left);
        return q.inFlight() < sk.cwnd() && sk.sndNxt + len <= sk.sndUna + sk.sndWnd
                && (len == sk.mssCache || q.packetsOut() == 0 || sk.finQueued);
    }

    /** {@code tcp_pause_early_retransmit} (v3.19/v4.6). */
    private boolean pauseEarlyRetransmit(int flag) {
        if (sk.cfg.earlyRetrans < 2 || sk.cfg.earlyRetrans > 3 || sk.srttUs == 0) {
            return false;
        }
        long jiffy = sk.cfg.jiffyPicos();
        long delay = Math.max(((sk.srttUs >> 5) * 1_000_000L + jiffy - 1) / jiffy * jiffy,
                (2_000_000_000L + jiffy - 1) / jiffy * jiffy);
        if (!sk.xmitTimer.pending() || sk.xmitTimer.whenPicos() <= sk.now() + delay) {
            return false;
        }
        sk.armXmit(TcpSock.T_EARLY_RETRANS, delay);
        return true;
    }

    /** {@code tcp_resume_early_retransmit}: the delayed early retransmit's timer. */
    void earlyRetransTimer() {
        sk.rearmRto();
        if (!sk.earlyRetransOn) {
            return;
        }
        enterRecovery();
        updateScoreboard(true);
        xmitRetransmitQueue();
    }

    /** {@code tcp_update_scoreboard} (v3.19/v4.6; current without RACK): marks the segments dupthresh or FACK say are lost. */
    private void updateScoreboard(boolean fastRexmit) {
        if (isReno()) {
            q.markHeadLost(1, true, true, sk.highSeq);
        } else if (fackOn()) {
            int lost = q.facketsOut - sk.reordering;
            q.markHeadLost(Math.max(lost, 1), false, true, sk.highSeq);
        } else {
            int upto = q.sackedOut - sk.reordering;
            if (upto >= 0) {
                q.markHeadLost(upto, false, false, sk.highSeq);
            } else if (fastRexmit) {
                q.markHeadLost(1, true, true, sk.highSeq);
            }
        }
    }

    private void setState(int state) {
        if (state != sk.caState) {
            sk.caState = state;
            sk.cc.setState(sk.s, state, sk.now());
        }
    }

    /** {@code tcp_try_keep_open}: Disorder while anything is SACKed, lost or retransmitted, else Open. */
    private void tryKeepOpen() {
        int state = q.sackedOut + q.lostOut > 0 || anyRetransDone() ? TcpSock.CA_DISORDER : TcpSock.CA_OPEN;
        if (sk.caState != state) {
            setState(state);
            sk.highSeq = sk.sndNxt;
        }
    }

    /** {@code tcp_try_to_open}. */
    private void tryToOpen(int flag, int priorUnsacked) {
        if (!anyRetransDone()) {
            sk.retransStamp = 0;
        }
        if (sk.caState != TcpSock.CA_CWR) {
            tryKeepOpen();
        } else if (k == Kernel.V3_19) {
            cwndReduction319(priorUnsacked, false);
        }
    }

    private boolean anyRetransDone() {
        return q.retransOut > 0 || (q.packetsOut() > 0 && q.has(0, RtxQueue.EVER_RETRANS));
    }

    /** {@code tcp_enter_recovery} with {@code tcp_init_cwnd_reduction}: ssthresh from the congestion control. */
    void enterRecovery() {
        sk.owner.event(TcpEvents.RECOVERIES, 1);
        sk.priorSsthresh = 0;
        initUndo();
        if (!sk.inCwndReduction()) {
            sk.priorSsthresh = currentSsthresh();
            initCwndReduction();
        }
        setState(TcpSock.CA_RECOVERY);
    }

    private void initCwndReduction() {
        sk.highSeq = sk.sndNxt;
        sk.tlpHighSeq = 0;
        sk.cc.cwndCnt[sk.s] = 0;
        sk.priorCwnd = sk.cwnd();
        sk.prrDelivered = 0;
        sk.prrOut = 0;
        sk.lossCwnd = sk.cwnd();
        sk.cc.ssthresh[sk.s] = sk.cc.recalcSsthresh(sk.s, sk.now());
    }

    /**
     * {@code tcp_cwnd_restart} (net/ipv4/tcp_output.c, RFC 2861's restart window): {@code ssthresh =
     * tcp_current_ssthresh}; cwnd halved once per RTO of the idle time beyond the first, down to the restart window
     * {@code min(TCP_INIT_CWND, cwnd)} ({@code tcp_init_cwnd} without a route metric). Reno and CUBIC ignore
     * {@code CA_EVENT_CWND_RESTART}.
     *
     * @param delta jiffies since the last data sent
     * @param rto the RTO in jiffies
     */
    void cwndRestart(long delta, long rto) {
        int cwnd = sk.cwnd();
        int restart = Math.min(sk.cfg.initialCwnd, cwnd);
        sk.cc.ssthresh[sk.s] = currentSsthresh();
        while ((delta -= rto) > 0 && cwnd > restart) {
            cwnd >>= 1;
        }
        sk.cwnd(Math.max(cwnd, restart));
    }

    /** {@code tcp_current_ssthresh}: in a reduction the threshold, otherwise max(ssthresh, 3/4 cwnd). */
    private int currentSsthresh() {
        if (sk.inCwndReduction()) {
            return sk.ssthresh();
        }
        return Math.max(sk.ssthresh(), (sk.cwnd() >> 1) + (sk.cwnd() >> 2));
    }

    private void initUndo() {
        sk.undoMarker = sk.sndUna;
        sk.undoRetrans = q.retransOut > 0 ? q.retransOut : -1;
    }

    /** {@code tcp_end_cwnd_reduction}: cwnd = ssthresh at the end of Recovery or CWR (unless undone). */
    private void endCwndReduction() {
        if (sk.ssthresh() < CongestionControl.INFINITE_SSTHRESH
                && (sk.caState == TcpSock.CA_CWR || sk.undoMarker != 0)) {
            sk.cwnd(sk.ssthresh());
        }
    }

    /** PRR, {@code tcp_cwnd_reduction} of v4.6 and current (RFC 6937 with each era's slow-start bound). */
    private void cwndReduction(int newlyAckedSacked, int flag) {
        if (newlyAckedSacked <= 0 || sk.priorCwnd == 0) {
            return;
        }
        int inFlight = q.inFlight();
        int delta = sk.ssthresh() - inFlight;
        sk.prrDelivered += newlyAckedSacked;
        int sndcnt;
        if (delta < 0) {
            long dividend = (long) sk.ssthresh() * sk.prrDelivered + sk.priorCwnd - 1;
            sndcnt = (int) (dividend / sk.priorCwnd) - sk.prrOut;
        } else if (k == Kernel.CURRENT) {
            sndcnt = Math.max(sk.prrDelivered - sk.prrOut, newlyAckedSacked);
            if ((flag & SND_UNA_ADVANCED) != 0 && (flag & LOST_RETRANS) == 0) {
                sndcnt++; // PRR-SSRB: the ACK advanced snd_una and marked nothing newly lost
            }
            sndcnt = Math.min(delta, sndcnt);
        } else if ((flag & RETRANS_DATA_ACKED) != 0 && (flag & LOST_RETRANS) == 0) {
            sndcnt = Math.min(delta, Math.max(sk.prrDelivered - sk.prrOut, newlyAckedSacked) + 1);
        } else {
            sndcnt = Math.min(delta, newlyAckedSacked);
        }
        sndcnt = Math.max(sndcnt, sk.prrOut > 0 ? 0 : 1); // force a fast retransmit on entering recovery
        sk.cwnd(inFlight + sndcnt);
    }

    /** PRR as v3.19 has it (PRR-SSRB always, {@code newly_acked_sacked} from {@code prior_unsacked}). */
    private void cwndReduction319(int priorUnsacked, boolean fastRexmit) {
        int inFlight = q.inFlight();
        int delta = sk.ssthresh() - inFlight;
        int newly = priorUnsacked - (q.packetsOut() - q.sackedOut);
        sk.prrDelivered += newly;
        int sndcnt;
        if (inFlight > sk.ssthresh()) {
            long dividend = (long) sk.ssthresh() * sk.prrDelivered + sk.priorCwnd - 1;
            sndcnt = (int) (dividend / Math.max(1, sk.priorCwnd)) - sk.prrOut;
        } else {
            sndcnt = Math.min(delta, Math.max(sk.prrDelivered - sk.prrOut, newly) + 1);
        }
        sndcnt = Math.max(sndcnt, fastRexmit ? 1 : 0);
        sk.cwnd(inFlight + sndcnt);
    }

    // ================================================================== undo

    /** {@code tcp_packet_delayed}: the echoed timestamp predates the first retransmission (the original arrived). */
    private boolean packetDelayed() {
        return sk.retransStamp == 0 || (sk.sawTs && sk.rcvTsecr != 0 && sk.rcvTsecr < sk.retransStamp);
    }

    private boolean mayUndo() {
        return sk.undoMarker != 0 && (sk.undoRetrans == 0 || packetDelayed());
    }

    /** {@code tcp_undo_cwnd_reduction}. */
    private void undoCwndReduction(boolean unmarkLoss) {
        if (unmarkLoss) {
            q.unmarkLost();
        }
        if (sk.priorSsthresh != 0) {
            sk.cwnd(sk.cc.undoCwnd(sk.s));
            if (sk.priorSsthresh > sk.ssthresh()) {
                sk.cc.ssthresh[sk.s] = (int) sk.priorSsthresh;
            }
        } else if (k == Kernel.V3_19) {
            sk.cwnd(Math.max(sk.cwnd(), sk.ssthresh()));
        }
        sk.undoMarker = 0;
        sk.owner.event(TcpEvents.UNDOS, 1);

    }

    private boolean tryUndoRecovery() {
        if (mayUndo()) {
            undoCwndReduction(false);
        }
        if (sk.sndUna == sk.highSeq && isReno()) {
            // hold the state until something above high_seq is acknowledged (RFC 6582); tcp_moderate_cwnd
            sk.cwnd(Math.min(sk.cwnd(), q.inFlight() + 3));
            if (!anyRetransDone()) {
                sk.retransStamp = 0;
            }
            return true;
        }
        setState(TcpSock.CA_OPEN);
        return false;
    }

    private boolean tryUndoPartial(int priorUnsacked) {
        if (sk.undoMarker != 0 && packetDelayed()) {
            updateReordering(facketsOrSacked() + 1, true);
            if (q.retransOut > 0) {
                if (k == Kernel.V3_19) {
                    cwndReduction319(priorUnsacked, false);
                }
                return true;
            }
            if (!anyRetransDone()) {
                sk.retransStamp = 0;
            }
            undoCwndReduction(true);
            tryKeepOpen();
            return true;
        }
        return false;
    }

    private boolean tryUndoDsack() {
        if (sk.undoMarker != 0 && sk.undoRetrans == 0) {
            undoCwndReduction(false);
            return true;
        }
        return false;
    }

    private boolean tryUndoLoss(boolean frtoUndo) {
        if (frtoUndo || mayUndo()) {
            undoCwndReduction(true);
            if (frtoUndo) {
                sk.owner.event(TcpEvents.SPURIOUS_RTOS, 1);
            }
            sk.retransmits = 0;
            if (frtoUndo || sk.sackOk) {
                setState(TcpSock.CA_OPEN);
            }
            return true;
        }
        return false;
    }

    /** {@code tcp_process_loss}: Loss state, with F-RTO (RFC 5682 §3.1, SACK-enhanced). */
    private void processLoss(int flag, boolean dup) {
        boolean recovered = sk.sndUna >= sk.highSeq;
        if (k == Kernel.V3_19) {
            if (sk.frtoActive) {
                if (tryUndoLoss((flag & ORIG_SACK_ACKED) != 0)) {
                    return;
                }
                if (sk.sndNxt > sk.highSeq && ((flag & DATA_SACKED) != 0 || dup)) {
                    sk.frtoActive = false;
                } else if ((flag & SND_UNA_ADVANCED) != 0 && !recovered) {
                    sk.highSeq = sk.sndNxt;
                    sk.writeXmit(false);
                    if (sk.sndNxt > sk.highSeq) {
                        return; // step 2.b: new data went out
                    }
                    sk.frtoActive = false;
                }
            }
            if (recovered) {
                tryUndoRecovery();
                return;
            }
            renoInLoss(flag, dup);
            if (tryUndoLoss(false)) {
                return;
            }
            xmitRetransmitQueue();
            return;
        }
        if ((flag & SND_UNA_ADVANCED) != 0 && tryUndoLoss(false)) {
            return;
        }
        if (sk.frtoActive) {
            if ((flag & ORIG_SACK_ACKED) != 0 && tryUndoLoss(true)) {
                return;
            }
            if (sk.sndNxt > sk.highSeq) {
                if ((flag & DATA_SACKED) != 0 || dup) {
                    sk.frtoActive = false; // step 3.a: the loss was real
                }
            } else if ((flag & SND_UNA_ADVANCED) != 0 && !recovered) {
                sk.highSeq = sk.sndNxt;
                if (sk.sndNxt < sk.writeSeq && sk.sndUna + sk.sndWnd > sk.sndNxt) {
                    rexmit = REXMIT_NEW; // step 2.b: send new data first
                    return;
                }
                sk.frtoActive = false;
            }
        }
        if (recovered) {
            tryUndoRecovery();
            return;
        }
        renoInLoss(flag, dup);
        rexmit = REXMIT_LOST;
    }

    private void renoInLoss(int flag, boolean dup) {
        if (isReno()) {
            if (sk.sndNxt > sk.highSeq && dup) {
                sk.delivered += q.addRenoSack();
            } else if ((flag & SND_UNA_ADVANCED) != 0) {
                q.resetRenoSack();
            }
        }
    }

    /** {@code tcp_xmit_recovery} (v4.6+). */
    private void xmitRecovery() {
        if (rexmit == REXMIT_NONE) {
            return;
        }
        if (rexmit == REXMIT_NEW) {
            sk.writeXmit(false);
            if (sk.sndNxt > sk.highSeq) {
                return;
            }
            sk.frtoActive = false;
        }
        xmitRetransmitQueue();
    }

    /**
     * {@code tcp_xmit_retransmit_queue}: retransmits the segments marked lost, oldest first, while the congestion window
     * allows; a retransmission of the head restarts the RTO timer.
     */
    void xmitRetransmitQueue() {
        int i = 0;
        while (true) {
            if (q.inFlight() >= sk.cwnd()) {
                return;
            }
            if (k == Kernel.CURRENT && q.retransOut >= q.lostOut) {
                return;
            }
            i = q.nextLost(i);
            if (i < 0) {
                return;
            }
            if (!sk.retransmit(i)) {
                return;
            }
            sk.owner.event(sk.caState == TcpSock.CA_LOSS ? TcpEvents.SLOW_START_RETRANS : TcpEvents.FAST_RETRANS, 1);
            if (sk.inCwndReduction()) {
                sk.prrOut++;
            }
            if (i == 0 && sk.pending != TcpSock.T_REO) {
                sk.armXmit(TcpSock.T_RETRANS, sk.rtoPicos);
            }
            i++;
        }
    }

    // ================================================================== RACK

    /** {@code tcp_rack_mark_lost} of v4.4-4.9: only after recovery starts, no timer, {@code reo_wnd} min_rtt/4 with reordering. */
    private boolean rackMarkLost46() {
        if (sk.caState < TcpSock.CA_RECOVERY || !sk.rackAdvanced) {
            return false;
        }
        sk.rackAdvanced = false;
        long reoWnd = 1000;
        if (sk.rackReord && sk.minRttUs() != Long.MAX_VALUE) {
            reoWnd = Math.max(sk.minRttUs() >> 2, reoWnd);
        }
        int priorRetrans = q.retransOut;
        for (int i = 0; i < q.packetsOut(); i++) {
            if (q.end(i) <= sk.sndUna || q.has(i, RtxQueue.SACKED)) {
                continue;
            }
            long x = q.xmit(i);
            if (sk.rackXmit > x) {
                if ((sk.rackXmit - x) / 1_000_000L <= reoWnd) {
                    continue;
                }
                if (q.markLostRetrans(i)) {
                    sk.owner.event(TcpEvents.LOST_RETRANSMITS, 1);
                }
            } else if (!q.has(i, (byte) (RtxQueue.RETRANS | RtxQueue.EVER_RETRANS))) {
                break; // originals are sent in order: the rest were sent after the RACK time
            }
        }
        return priorRetrans > q.retransOut;
    }

    /** {@code tcp_rack_mark_lost} with {@code tcp_rack_detect_loss} (current): time-based loss, and the reordering timer. */
    private void rackMarkLost() {
        if (!sk.rackAdvanced) {
            return;
        }
        sk.rackAdvanced = false;
        long timeout = rackDetectLoss();
        if (timeout > 0) {
            long jiffy = sk.cfg.jiffyPicos();
            long t = (timeout * 1_000_000L + jiffy - 1) / jiffy * jiffy + TcpSock.TIMEOUT_MIN_JIFFIES * jiffy;
            sk.armXmit(TcpSock.T_REO, Math.min(t, sk.rtoPicos));
        }
    }

    /**
     * {@code tcp_rack_reo_wnd} (v4.18 to 6.12): no window while no reordering has been seen and recovery is under way or
     * {@code sacked_out} reached the dupthresh; otherwise {@code min(min_rtt/4 * reo_wnd_steps, srtt)}, with
     * {@code reo_wnd_steps} 1 (its growth on D-SACKs, {@code tcp_rack_update_reo_wnd}, is not modelled).
     *
     * @return the reordering window, microseconds
     */
    private long rackReoWnd() {
        if (!sk.rackReord) {
            if (sk.caState >= TcpSock.CA_RECOVERY || q.sackedOut >= sk.reordering) {
                return 0;
            }
        }
        if (sk.minRttUs() == Long.MAX_VALUE) {
            return 0;
        }
        return Math.min(sk.minRttUs() >> 2, sk.srttUs >> 3);
    }

    /** @return the longest wait (µs, +1) of a segment not yet past RACK's window, 0 if none. */
    private long rackDetectLoss() {
        long reoWnd = rackReoWnd();
        long now = sk.now();
        long wait = 0;
        for (int i = 0; i < q.packetsOut(); i++) {
            byte m = q.marks(i);
            if ((m & RtxQueue.SACKED) != 0 || ((m & RtxQueue.LOST) != 0 && (m & RtxQueue.RETRANS) == 0)) {
                continue;
            }
            long x = q.xmit(i);
            boolean before = sk.rackXmit > x || (sk.rackXmit == x && sk.rackEnd > q.end(i));
            if (!before) {
                if ((m & (RtxQueue.RETRANS | RtxQueue.EVER_RETRANS)) == 0) {
                    break; // the time-sorted list would end here: originals go out in sequence order
                }
                continue;
            }
            long remaining = sk.rackRttUs + reoWnd - (now - x) / 1_000_000L; // tcp_rack_skb_timeout
            if (remaining <= 0) {
                if (q.markLostRetrans(i)) {
                    sk.owner.event(TcpEvents.LOST_RETRANSMITS, 1);
                }
            } else {
                wait = Math.max(wait, remaining);
            }
        }
        return wait;
    }

    /** {@code tcp_rack_reo_timeout}: the reordering window has passed; mark what expired and retransmit. */
    void rackReoTimeout() {
        int prior = q.inFlight();
        rackDetectLoss();
        if (prior != q.inFlight()) {
            if (sk.caState != TcpSock.CA_RECOVERY) {
                enterRecovery();
                cwndReduction(1, 0);
            }
            xmitRetransmitQueue();
        }
        if (sk.pending != TcpSock.T_RETRANS) {
            sk.rearmRto();
        }
    }

    // ================================================================== RTO

    /** {@code tcp_retransmit_timer}: a timeout; Loss state, the head again, the timer backed off. */
    void retransmitTimer() {
        if (q.packetsOut() == 0) {
            return;
        }
        sk.owner.event(TcpEvents.RTO, 1);
        enterLoss();
        // icsk_backoff, icsk_retransmits and the doubled icsk_rto are in place before the segment reaches anyone (the
        // kernel's peer sees it after the handler returns; here a peer may react within the send)
        long rto = sk.rtoPicos;
        sk.backoff++;
        sk.retransmits++;
        sk.rtoPicos = Math.min(rto << 1, TcpConfig.MAX_RTO_PICOS);
        if (!sk.retransmit(0)) {
            sk.backoff--; // local congestion: no backoff (tcp_retransmit_timer's "do not backoff")
            sk.retransmits--;
            sk.rtoPicos = rto;
            sk.armXmit(TcpSock.T_RETRANS, Math.min(sk.rtoPicos, 500_000_000_000L)); // TCP_RESOURCE_PROBE_INTERVAL
            return;
        }
        sk.owner.event(TcpEvents.SLOW_START_RETRANS, 1);
        sk.armXmit(TcpSock.T_RETRANS, sk.rtoPicos);
    }

    /** {@code tcp_enter_loss}. */
    private void enterLoss() {
        boolean newRecovery = false;
        if (sk.caState <= TcpSock.CA_DISORDER || sk.highSeq <= sk.sndUna
                || (sk.caState == TcpSock.CA_LOSS && sk.retransmits == 0)) {
            newRecovery = true;
            sk.priorSsthresh = currentSsthresh();
            sk.lossCwnd = sk.cwnd();
            sk.cc.ssthresh[sk.s] = sk.cc.recalcSsthresh(sk.s, sk.now());
            initUndo();
        }
        sk.cc.cwnd[sk.s] = 1;
        sk.cc.cwndCnt[sk.s] = 0;
        if (isReno()) {
            q.resetRenoSack();
        }
        q.markAllLost(q.packetsOut() > 0 && q.has(0, RtxQueue.SACKED));
        if (sk.caState <= TcpSock.CA_DISORDER && q.sackedOut >= sk.cfg.reordering) {
            sk.reordering = Math.min(sk.reordering, sk.cfg.reordering);
        }
        setState(TcpSock.CA_LOSS);
        sk.highSeq = sk.sndNxt;
        sk.frtoActive = sk.cfg.frto > 0 && (newRecovery || sk.retransmits > 0);
    }

    // ================================================================== TLP

    /**
     * {@code tcp_schedule_loss_probe}: a probe 2 RTTs after the last send, in the Open state, for SACK connections.
     *
     * @param advancingRto whether the RTO is being restarted by this ACK (current kernels' {@code advancing_rto}: the RTO
     *        bound is a whole {@code icsk_rto} from now, not what is left of the running one)
     * @return whether the probe timer was armed
     */
    boolean scheduleLossProbe(boolean advancingRto) {
        int er = sk.cfg.earlyRetrans;
        if ((er != 3 && er != 4) || q.packetsOut() == 0 || !sk.sackOk) {
            return false;
        }
        long jiffy = sk.cfg.jiffyPicos();
        long timeout;
        if (k == Kernel.CURRENT) {
            if (sk.caState != TcpSock.CA_OPEN && sk.caState != TcpSock.CA_CWR) {
                return false;
            }
            if (sk.srttUs != 0) {
                long us = (sk.srttUs >> 2) + (q.packetsOut() == 1 ? sk.cfg.minRto / 1_000_000L : 2000);
                timeout = (us * 1_000_000L + jiffy - 1) / jiffy * jiffy;
            } else {
                timeout = TcpConfig.INITIAL_RTO_PICOS;
            }
        } else {
            if (sk.pending != TcpSock.T_RETRANS || sk.srttUs == 0 || sk.caState != TcpSock.CA_OPEN) {
                return false;
            }
            if (sk.cwnd() > q.inFlight() && sk.sndNxt < sk.writeSeq) {
                return false; // not limited by the window or the application
            }
            long rtt = ((sk.srttUs >> 3) * 1_000_000L + jiffy - 1) / jiffy * jiffy;
            timeout = rtt << 1;
            if (q.packetsOut() == 1) {
                timeout = Math.max(timeout, rtt + (rtt >> 1) + TcpConfig.DELACK_MAX_PICOS);
            }
            timeout = Math.max(timeout, (10_000_000_000L + jiffy - 1) / jiffy * jiffy);
        }
        long rtoAt = q.xmit(0) + sk.rtoPicos - sk.now(); // tcp_rto_delta_us: how far the RTO is
        if (advancingRto) {
            rtoAt = sk.rtoPicos;
        } else if (sk.pending == TcpSock.T_RETRANS && sk.xmitTimer.pending()) {
            rtoAt = sk.xmitTimer.whenPicos() - sk.now();
        }
        if (rtoAt > 0) {
            timeout = Math.min(timeout, rtoAt);
        }
        sk.armXmit(TcpSock.T_LOSS_PROBE, timeout);
        return true;
    }

    /** {@code tcp_send_loss_probe}: new data if there is some, otherwise the last segment again; then the RTO. */
    void sendLossProbe() {
        if (sk.sndNxt < sk.writeSeq || (sk.finQueued && !sk.finSent)) {
            if (sk.writeXmit(true) > 0) {
                sk.owner.event(TcpEvents.LOSS_PROBES, 1);
            }
        } else if (sk.tlpHighSeq == 0 && q.packetsOut() > 0) {
            int last = q.packetsOut() - 1;
            if (!q.has(last, RtxQueue.SACKED) && sk.retransmit(last)) {
                sk.tlpHighSeq = sk.sndNxt;
                sk.owner.event(TcpEvents.LOSS_PROBES, 1);
            }
        }
        sk.armXmit(TcpSock.T_RETRANS, sk.rtoPicos);
    }

    /** {@code tcp_process_tlp_ack}: a probe that repaired a loss means a cwnd reduction (CWR). */
    private void processTlpAck(long ack, int flag) {
        if (ack < sk.tlpHighSeq) {
            return;
        }
        if ((flag & DSACKING_ACK) != 0) {
            sk.tlpHighSeq = 0; // the original and the probe both arrived: no loss
        } else if (ack > sk.tlpHighSeq) {
            initCwndReduction();
            setState(TcpSock.CA_CWR);
            endCwndReduction();
            tryKeepOpen();
            sk.owner.event(TcpEvents.LOSS_PROBE_RECOVERIES, 1);
        } else if ((flag & (SND_UNA_ADVANCED | NOT_DUP | DATA_SACKED)) == 0) {
            sk.tlpHighSeq = 0;
        }
    }
}
