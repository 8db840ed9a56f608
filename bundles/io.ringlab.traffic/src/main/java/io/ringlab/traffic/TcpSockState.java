package io.ringlab.traffic;

import io.ringlab.sim.api.ElementState;
import io.ringlab.sim.api.Timer;

/**
 * Hot swap of one {@link TcpSock}: every scalar of the socket and its receiving half listed once in {@link #fields},
 * which both writes and reads them in the same order; the scoreboard, the out-of-order record and the SACK blocks as
 * arrays; the two timers taken over in their places.
 */
final class TcpSockState {
    /** Visits one value: returns what to store (the value itself when writing, the next saved one when reading). */
    private interface Field {
        long x(long v);
    }

    private TcpSockState() {
    }

    private static void fields(TcpSock k, Field f) {
        k.state = (int) f.x(k.state);
        k.caState = (int) f.x(k.caState);
        k.pending = (int) f.x(k.pending);
        k.iss = f.x(k.iss);
        k.irs = f.x(k.irs);
        k.sndUna = f.x(k.sndUna);
        k.sndNxt = f.x(k.sndNxt);
        k.writeSeq = f.x(k.writeSeq);
        k.finQueued = f.x(k.finQueued ? 1 : 0) != 0;
        k.finSent = f.x(k.finSent ? 1 : 0) != 0;
        k.sndWnd = f.x(k.sndWnd);
        k.sndWl1 = f.x(k.sndWl1);
        k.maxWindow = f.x(k.maxWindow);
        k.tailSkbStart = f.x(k.tailSkbStart);
        k.sndWscale = (int) f.x(k.sndWscale);
        k.mssCache = (int) f.x(k.mssCache);
        k.advmss = (int) f.x(k.advmss);
        k.peerMss = (int) f.x(k.peerMss);
        k.sackOk = f.x(k.sackOk ? 1 : 0) != 0;
        k.tsOk = f.x(k.tsOk ? 1 : 0) != 0;
        k.wscaleOk = f.x(k.wscaleOk ? 1 : 0) != 0;
        k.poolBlocked = f.x(k.poolBlocked ? 1 : 0) != 0;
        k.srttUs = f.x(k.srttUs);
        k.mdevUs = f.x(k.mdevUs);
        k.mdevMaxUs = f.x(k.mdevMaxUs);
        k.rttvarUs = f.x(k.rttvarUs);
        k.rttSeq = f.x(k.rttSeq);
        k.minRttUs = f.x(k.minRttUs);
        k.rtoPicos = f.x(k.rtoPicos);
        k.backoff = (int) f.x(k.backoff);
        k.retransmits = (int) f.x(k.retransmits);
        k.totalRetrans = f.x(k.totalRetrans);
        k.highSeq = f.x(k.highSeq);
        k.undoMarker = f.x(k.undoMarker);
        k.retransStamp = f.x(k.retransStamp);
        k.tlpHighSeq = f.x(k.tlpHighSeq);
        k.priorSsthresh = f.x(k.priorSsthresh);
        k.undoRetrans = (int) f.x(k.undoRetrans);
        k.priorCwnd = (int) f.x(k.priorCwnd);
        k.prrDelivered = (int) f.x(k.prrDelivered);
        k.prrOut = (int) f.x(k.prrOut);
        k.reordering = (int) f.x(k.reordering);
        k.frtoActive = f.x(k.frtoActive ? 1 : 0) != 0;
        k.fack = f.x(k.fack ? 1 : 0) != 0;
        k.earlyRetransOn = f.x(k.earlyRetransOn ? 1 : 0) != 0;
        k.lossCwnd = f.x(k.lossCwnd);
        k.rackXmit = f.x(k.rackXmit);
        k.rackEnd = f.x(k.rackEnd);
        k.rackRttUs = f.x(k.rackRttUs);
        k.rackAdvanced = f.x(k.rackAdvanced ? 1 : 0) != 0;
        k.rackReord = f.x(k.rackReord ? 1 : 0) != 0;
        k.sawTs = f.x(k.sawTs ? 1 : 0) != 0;
        k.rcvTsval = f.x(k.rcvTsval);
        k.rcvTsecr = f.x(k.rcvTsecr);
        k.maxPacketsOut = (int) f.x(k.maxPacketsOut);
        k.maxPacketsSeq = f.x(k.maxPacketsSeq);
        k.cwndLimited = f.x(k.cwndLimited ? 1 : 0) != 0;
        k.lastSendPicos = f.x(k.lastSendPicos);
        k.synRetries = (int) f.x(k.synRetries);
        k.activeOpen = f.x(k.activeOpen ? 1 : 0) != 0;
        k.bytesAcked = f.x(k.bytesAcked);
        k.ackEvents = f.x(k.ackEvents);
        k.delivered = f.x(k.delivered);
        TcpRcvHalf r = k.rcv;
        r.rcvNxt = f.x(r.rcvNxt);
        r.rcvWup = f.x(r.rcvWup);
        r.rcvWnd = f.x(r.rcvWnd);
        r.rcvSsthresh = f.x(r.rcvSsthresh);
        r.windowClamp = f.x(r.windowClamp);
        r.rcvWscale = (int) f.x(r.rcvWscale);
        r.rcvMss = (int) f.x(r.rcvMss);
        r.rcvbuf = (int) f.x(r.rcvbuf);
        r.ofoMem = f.x(r.ofoMem);
        r.numSacks = (int) f.x(r.numSacks);
        r.dsackStart = f.x(r.dsackStart);
        r.dsackEnd = f.x(r.dsackEnd);
        r.dsack = f.x(r.dsack ? 1 : 0) != 0;
        r.sackOk = f.x(r.sackOk ? 1 : 0) != 0;
        r.tsOk = f.x(r.tsOk ? 1 : 0) != 0;
        r.quick = (int) f.x(r.quick);
        r.tsRecent = f.x(r.tsRecent);
        r.spaceBytes = f.x(r.spaceBytes);
        r.spaceSeq = f.x(r.spaceSeq);
        r.spaceTime = f.x(r.spaceTime);
        r.rttEst = f.x(r.rttEst);
        r.rttSeq = f.x(r.rttSeq);
        r.rttTime = f.x(r.rttTime);
        r.ackPending = f.x(r.ackPending ? 1 : 0) != 0;
        r.atoInit = f.x(r.atoInit ? 1 : 0) != 0;
    }

    /** Writes the socket under {@code prefix}. */
    static void export(TcpSock k, ElementState out, String prefix) {
        long[] buf = new long[128];
        int[] n = {0};
        fields(k, v -> {
            buf[n[0]++] = v;
            return v;
        });
        out.put(prefix + ".fields", java.util.Arrays.copyOf(buf, n[0]));
        long[][] rtx = k.q.export();
        for (int i = 0; i < rtx.length; i++) {
            out.put(prefix + ".rtx" + i, rtx[i]);
        }
        SeqRanges ofo = k.rcv.ofo;
        long[] ranges = new long[2 * ofo.count()];
        for (int i = 0; i < ofo.count(); i++) {
            ranges[2 * i] = ofo.start(i);
            ranges[2 * i + 1] = ofo.end(i);
        }
        out.put(prefix + ".ofo", ranges);
        out.put(prefix + ".push", k.marks.export());
        out.put(prefix + ".sackStart", k.rcv.sackStart.clone());
        out.put(prefix + ".sackEnd", k.rcv.sackEnd.clone());
        out.put(prefix + ".xmitTimer", k.xmitTimer);
        out.put(prefix + ".delackTimer", k.delackTimer);
    }

    /** Reads what {@link #export} wrote. */
    static void load(TcpSock k, ElementState in, String prefix) {
        long[] saved = in.get(prefix + ".fields", long[].class);
        int[] n = {0};
        fields(k, v -> saved[n[0]++]);
        long[][] rtx = new long[5][];
        for (int i = 0; i < rtx.length; i++) {
            rtx[i] = in.get(prefix + ".rtx" + i, long[].class);
        }
        k.q.load(rtx);
        long[] ranges = in.get(prefix + ".ofo", long[].class);
        for (int i = 0; i < ranges.length; i += 2) {
            k.rcv.ofo.add(ranges[i], ranges[i + 1]); // sorted, apart: each goes to the end
        }
        k.marks.load(in.get(prefix + ".push", long[].class));
        Handovers.read(in, prefix + ".sackStart", k.rcv.sackStart);
        Handovers.read(in, prefix + ".sackEnd", k.rcv.sackEnd);
        k.xmitTimer.takeOver(in.get(prefix + ".xmitTimer", Timer.class));
        k.delackTimer.takeOver(in.get(prefix + ".delackTimer", Timer.class));
    }
}
