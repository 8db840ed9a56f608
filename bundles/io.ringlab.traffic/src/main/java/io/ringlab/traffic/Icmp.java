package io.ringlab.traffic;

/**
 * ICMP echo and the IPv4 TOS-to-priority map the kernel applies to locally generated packets.
 */
final class Icmp {
    /** {@code Buffer.flags()} value of an echo request (ICMP type 8, RFC 792). */
    static final int ECHO_REQUEST = 8;
    /** {@code Buffer.flags()} value of an echo reply (ICMP type 0, RFC 792). */
    static final int ECHO_REPLY = 0;
    /** Ethernet (14) + IPv4 (20) + ICMP (8) header bytes in front of the echo payload. */
    static final int HEADERS = 14 + 20 + 8;

    /**
     * {@code ip_tos2prio} ({@code net/ipv4/route.c}): TC_PRIO_BESTEFFORT 0, BULK 2, INTERACTIVE_BULK 4, INTERACTIVE 6;
     * the ECN_OR_COST entries equal their class.
     */
    private static final int[] TOS2PRIO = {0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 4, 4, 4, 4};

    private Icmp() {
    }

    /**
     * @param element an element's name
     * @return the element's first flow number: a 15-bit hash of its name (FNV-1a) times 65,536, so that flow numbers depend
     *         on names only, never on where the element stands in the file, and stay positive
     */
    static int flowBase(String element) {
        int h = 0x811C9DC5;
        for (int i = 0; i < element.length(); i++) {
            h = (h ^ element.charAt(i)) * 0x01000193;
        }
        return ((h ^ (h >>> 15)) & 0x7FFF) << 16;
    }

    /**
     * {@code rt_tos2priority} ({@code include/net/route.h}): {@code ip_tos2prio[IPTOS_TOS(tos) >> 1]} with
     * {@code IPTOS_TOS(tos) = tos & 0x1E}. TOS 0x10 ({@code ping -Q 0x10}, low delay) gives 6, pfifo_fast band 0; TOS 0 gives
     * 0, band 1.
     *
     * @param tos the TOS byte
     * @return the skb priority
     */
    static int priorityOf(int tos) {
        return TOS2PRIO[(tos & 0x1E) >> 1];
    }
}
