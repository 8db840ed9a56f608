package io.ringlab.traffic;

import io.ringlab.packetdrill.Stack;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;

/**
 * Test code in the models' package: the packetdrill executor's way into the {@code tcp} and {@code host} elements.
 * {@link #tcp} and {@link #host} are factories for the element types {@code tcp} and {@code host} that create the
 * element with the bundle's own factory and hand the executor its socket ({@link Stack}); registered by hand with
 * {@code Standalone.builder().element(...)}, they serve the type before the discovered factory. The socket calls are the
 * package-private application methods of {@link TcpElement} ({@code appListen}, {@code appConnect}, {@code established},
 * {@code appWrite}, {@code appClose}, {@code tcpInfo}) and of {@link HostElement} ({@code established}, {@code tcpInfo},
 * by flow).
 */
public final class PacketdrillAdapter {

	private PacketdrillAdapter() {
	}

	/** @return the first flow number of element {@code name} ({@link Icmp#flowBase}) */
	public static int flowBase(String name) {
		return Icmp.flowBase(name);
	}

	/** A {@code tcp} factory whose element's stream 0 is the script's connection. */
	public static ElementFactory tcp(Consumer<Stack> bind) {
		return wrap(new TcpFactory(), (ctx, e) -> bind.accept(new TcpSocket((TcpElement) e, Icmp.flowBase(ctx.name()))));
	}

	/** A {@code host} factory whose flow {@code flow} is the script's connection. */
	public static ElementFactory host(Consumer<Stack> bind, int flow) {
		return wrap(new HostFactory(), (ctx, e) -> bind.accept(new HostSocket((HostElement) e, flow)));
	}

	private interface Created {
		void accept(ElementContext ctx, Element e);
	}

	private static ElementFactory wrap(ElementFactory delegate, Created created) {
		return new ElementFactory() {
			@Override
			public ElementDescriptorDTO descriptor() {
				return delegate.descriptor();
			}

			@Override
			public Element create(ElementContext context) {
				Element e = delegate.create(context);
				created.accept(context, e);
				return e;
			}
		};
	}

	/** Stream 0 of a {@code tcp} element. */
	private record TcpSocket(TcpElement e, int flow) implements Stack {
		@Override
		public void listen() {
			e.appListen(0);
		}

		@Override
		public void connect() {
			e.appConnect(0);
		}

		@Override
		public boolean established() {
			return e.established(0);
		}

		@Override
		public long write(long bytes) {
			return e.appWrite(0, bytes);
		}

		@Override
		public void close() {
			e.appClose(0);
		}

		@Override
		public void tcpInfo(ObjLongConsumer<String> out) {
			e.tcpInfo(0, out);
		}
	}

	/** One flow of a {@code host}; the host always listens and sends no data. */
	private record HostSocket(HostElement e, int flow) implements Stack {
		@Override
		public void listen() {
			// the host answers every SYN
		}

		@Override
		public void connect() {
			throw new UnsupportedOperationException("the host element does not open connections");
		}

		@Override
		public boolean established() {
			return e.established(flow);
		}

		@Override
		public long write(long bytes) {
			throw new UnsupportedOperationException("the host element does not send data");
		}

		@Override
		public void close() {
			throw new UnsupportedOperationException("the host element does not close connections (no FIN of its own)");
		}

		@Override
		public void tcpInfo(ObjLongConsumer<String> out) {
			e.tcpInfo(flow, out);
		}
	}
}
