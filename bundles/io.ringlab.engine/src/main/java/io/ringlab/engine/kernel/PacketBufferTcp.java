package io.ringlab.engine.kernel;

import io.ringlab.buffer.api.BufferPool;

/**
 * The TCP header's fields of a {@link PacketBuffer} that every TCP segment uses, laid out after the fields every packet
 * uses ({@link PacketBufferHead}) and before the SACK blocks, which only some ACKs carry.
 */
abstract class PacketBufferTcp extends PacketBufferHead {
    long seq;
    long ack;
    long tsVal;
    long tsEcr;
    int flags;
    int fragments;
    int tcpHeaderBytes;
    int tcpWindow;
    int tcpOptions;
    int tcpMss;
    int tcpWscale;
    int sackBlocks;

    PacketBufferTcp(int id, BufferPool pool, int capacity, long address) {
        super(id, pool, capacity, address);
    }
}
