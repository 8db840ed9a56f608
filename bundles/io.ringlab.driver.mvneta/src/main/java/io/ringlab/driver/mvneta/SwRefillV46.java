package io.ringlab.driver.mvneta;

import java.util.Map;

import io.ringlab.buffer.api.Buffer;
import io.ringlab.buffer.api.BufferPool;

/**
 * <b>Receive, software refill</b> of v4.6 ({@code bm = false}, {@code mvneta_rx_swbm}): {@code rxRing} (128)
 * descriptors, each holding a buffer of {@code frag_size} from pool kind {@code pagefrag} ({@code netdev_alloc_frag}).
 * A frame takes the next free descriptor (DMA into its buffer) or is dropped ({@code rx-no-descriptor}). In the poll: a
 * frame of at most {@code rxCopybreak} (256) bytes is copied into a new small skb (pool kind {@code skb}) and the
 * buffer stays; a larger one first gets a replacement ({@code mvneta_rx_refill}; failing that the frame is dropped and
 * the buffer kept, {@code rx-refill-failed}, {@code rxRefillFailures}) and then goes up the stack itself ({@code
 * build_skb}); each replacement is a DMA map ({@code dmaMaps}).
 * <p>
 * Handover: the page fragments again (the same pool) and nothing else of its own: the buffers are in the ring.
 * Not thread-safe: engine thread only.
 */
final class SwRefillV46 extends RxPath {
    private final BufferPool fragPool, copyPool;

    /** Creates the RX pool (page fragments of {@code frag_size}) and the copybreak skbs. */
    SwRefillV46(MvnetaElement port) {
        super(port);
        // the ring's buffers and those the stack holds
        this.fragPool = ctx.pool("pagefrag", "rx", 2 * rxRing + 256, port.fragSize, Map.of());
        this.copyPool = port.newCopyPool();
    }

    @Override
    String name() {
        return "mvneta_rx_swbm v4.6";
    }

    @Override
    void fill() {
        fillDescriptors(fragPool);
    }

    @Override
    Buffer dmaTarget(int slot, Buffer frame) {
        return descriptorBuffer(slot, frame);
    }

    /** {@code mvneta_rx_swbm} for one descriptor. */
    @Override
    void receive(int slot, Buffer b) {
        if (b.length() <= port.copybreak) {
            port.copy(b, copyPool);
            return; // the buffer stays in its descriptor
        }
        Buffer fresh = fragPool.alloc(coreIndex, self); // mvneta_rx_refill: netdev_alloc_frag + dma_map
        if (fresh == null) {
            port.rxRefillFailures.increment();
            ctx.recycle(b, port.dropRefill); // the frame is dropped, the buffer stays in the descriptor
            return;
        }
        core.charge(self, port.dmaMap, 0); // dma_map_single of the new buffer (arm_coherent_dma_ops: no cache work)
        port.dmaMaps.increment();
        rxBuf[slot] = fresh;
        port.up(b); // build_skb around the old buffer (dma_unmap_single: no unmap hook with the coherent ops)
    }

    @Override
    BufferPool ringPool() {
        return fragPool;
    }
}
