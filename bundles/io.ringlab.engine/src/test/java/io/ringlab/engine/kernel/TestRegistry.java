package io.ringlab.engine.kernel;

import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.ringlab.bql.DqlProvider;
import io.ringlab.buffer.api.BufferPoolProvider;
import io.ringlab.driver.netdev.NetdevFactory;
import io.ringlab.link.LinkFactory;
import io.ringlab.qdisc.FqCodelElementFactory;
import io.ringlab.qdisc.FqCodelProvider;
import io.ringlab.qdisc.PfifoFastElementFactory;
import io.ringlab.qdisc.PfifoFastProvider;
import io.ringlab.qdisc.PfifoProvider;
import io.ringlab.qdisc.QdiscElementFactory;
import io.ringlab.queue.api.QdiscProvider;
import io.ringlab.queue.api.QueueLimitsProvider;
import io.ringlab.sim.api.CostProfile;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import io.ringlab.traffic.DropFactory;
import io.ringlab.traffic.SinkFactory;
import io.ringlab.traffic.SourceFactory;

/** A registry of plain maps with the reference elements and providers, for running pipelines without a framework. */
class TestRegistry implements Registry {
    final Map<String, ElementFactory> factories = new LinkedHashMap<>();

    TestRegistry() {
        for (ElementFactory f : List.of(new SourceFactory(), new SinkFactory(), new DropFactory(), new io.ringlab.traffic.PingFactory(),
                new io.ringlab.traffic.HostFactory(), new io.ringlab.traffic.TcpFactory(), new io.ringlab.traffic.DemuxFactory(),
                new io.ringlab.traffic.HttpLoadFactory(), new io.ringlab.traffic.HaproxyFactory(),
                new LinkFactory(),
                new NetdevFactory(), new QdiscElementFactory(), new PfifoFastElementFactory(), new FqCodelElementFactory(),
                new io.ringlab.driver.mlx5.Mlx5Factory(), new io.ringlab.driver.mvneta.MvnetaFactory(),
                new io.ringlab.driver.mlx4.Mlx4Factory())) {
            factories.put(f.descriptor().type, f);
        }
    }

    TestRegistry with(ElementFactory f) {
        factories.put(f.descriptor().type, f);
        return this;
    }

    @Override public ElementFactory factory(String type) { return factories.get(type); }

    @Override
    public List<ElementDescriptorDTO> types() {
        List<ElementDescriptorDTO> l = new ArrayList<>();
        for (ElementFactory f : factories.values()) {
            l.add(f.descriptor());
        }
        return l;
    }

    @Override
    public BufferPoolProvider poolProvider(String kind) {
        return switch (kind) {
            case "fixed" -> (ctx, name, cap, bytes, settings) -> new FixedPool(ctx, name, cap, bytes);
            case "slab" -> new io.ringlab.pool.slab.SlabPoolProvider();
            case "skb" -> new io.ringlab.pool.slab.SkbPoolProvider();
            case "hwbm" -> new io.ringlab.pool.hwbm.HwbmPoolProvider();
            case "pagefrag" -> new io.ringlab.pool.hwbm.PageFragPoolProvider();
            case "pagepool" -> new io.ringlab.pool.hwbm.PagePoolProvider();
            default -> null;
        };
    }

    @Override public List<String> poolKinds() { return List.of("fixed", "hwbm", "pagefrag", "pagepool", "skb", "slab"); }

    @Override
    public <S> S provider(Class<S> type, String kindProperty, String kind) {
        if (type == QueueLimitsProvider.class && kind.equals("dql")) {
            return type.cast(new DqlProvider());
        }
        if (type == QdiscProvider.class && kind.equals("pfifo")) {
            return type.cast(new PfifoProvider());
        }
        if (type == QdiscProvider.class && kind.equals("pfifo_fast")) {
            return type.cast(new PfifoFastProvider());
        }
        if (type == QdiscProvider.class && kind.equals("fq_codel")) {
            return type.cast(new FqCodelProvider());
        }
        return null;
    }

    @Override public List<String> providerKinds(Class<?> type, String kindProperty) { return List.of(); }

    @Override
    public CostProfile profile(String name) {
        try (Reader r = new InputStreamReader(getClass().getResourceAsStream("/profiles/" + name + ".profile"),
                StandardCharsets.UTF_8)) {
            return CostProfileImpl.read(name, r);
        } catch (IOException | NullPointerException e) {
            throw new IllegalArgumentException("unknown cost profile " + name);
        }
    }

    @Override public String bundleOf(String type) { return null; }
    @Override public Map<String, String> coreBundles() { return Map.of("io.ringlab.engine", "test"); }
}
