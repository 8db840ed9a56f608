package io.ringlab.traffic;

import io.ringlab.packetdrill.Stack;
import io.ringlab.sim.api.Element;
import io.ringlab.sim.api.ElementContext;
import io.ringlab.sim.api.ElementFactory;
import io.ringlab.sim.api.dto.ElementDescriptorDTO;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.function.Consumer;
import java.util.function.ObjLongConsumer;

/**
 * Test code in the models' package: the packetdrill executor's way into the {@code tcp} and {@code host} elements.
 * {@link #tcp} and {@link #host} are factories for the element types {@code tcp} and {@code host} that create the
 * element with the bundle's own factory and hand the executor its socket ({@link Stack}); registered by hand with
 * {@code Standalone.builder().element(...)}, they serve the type before the discovered factory.
 *
 * <p>The socket calls are the package-private methods issue 17 section 1 adds to {@link TcpElement}
 * ({@code appListen(int)}, {@code appConnect(int)}, {@code established(int)}, {@code appWrite(int, long)},
 * {@code appClose(int)}, {@code tcpInfo(int, ObjLongConsumer)}) and to {@link HostElement} ({@code established(int)},
 * {@code tcpInfo(int, ObjLongConsumer)}, by flow). They are looked up when first called, so that this class builds
 * against a model without them; a missing one is an {@link UnsupportedOperationException} naming it, which the
 * executor reports at the script's line.
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
		return wrap(new TcpFactory(), (ctx, e) -> bind.accept(new TcpSocket(e, Icmp.flowBase(ctx.name()))));
	}

	/** A {@code host} factory whose receiver's flow {@code flow} is the script's connection. */
	public static ElementFactory host(Consumer<Stack> bind, int flow) {
		return wrap(new HostFactory(), (ctx, e) -> bind.accept(new HostSocket(e, flow)));
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

	/** Calls a package-private method of the model by name, found on first use. */
	private static final class Call {
		private final Object target;
		private final String name;
		private final MethodType type;
		private MethodHandle handle;

		Call(Object target, String name, Class<?> returns, Class<?>... params) {
			this.target = target;
			this.name = name;
			this.type = MethodType.methodType(returns, params);
		}

		MethodHandle handle() {
			if (handle == null) {
				try {
					handle = MethodHandles.lookup().findVirtual(target.getClass(), name, type).bindTo(target);
				} catch (NoSuchMethodException | IllegalAccessException e) {
					throw new UnsupportedOperationException(target.getClass().getName() + " has no " + name + type
							+ ": the model lacks issue 17's socket API (section 1, the commit 'tcp socket API')");
				}
			}
			return handle;
		}
	}

	private static RuntimeException rethrow(Throwable t) {
		if (t instanceof RuntimeException r) {
			return r;
		}
		if (t instanceof Error e) {
			throw e;
		}
		return new IllegalStateException(t);
	}

	/** Stream 0 of a {@code tcp} element. */
	private static final class TcpSocket implements Stack {
		private final int flow;
		private final Call listen, connect, established, write, close, info;

		TcpSocket(Element e, int flow) {
			this.flow = flow;
			listen = new Call(e, "appListen", void.class, int.class);
			connect = new Call(e, "appConnect", void.class, int.class);
			established = new Call(e, "established", boolean.class, int.class);
			write = new Call(e, "appWrite", long.class, int.class, long.class);
			close = new Call(e, "appClose", void.class, int.class);
			info = new Call(e, "tcpInfo", void.class, int.class, ObjLongConsumer.class);
		}

		@Override
		public void listen() {
			try {
				listen.handle().invokeExact(0);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public void connect() {
			try {
				connect.handle().invokeExact(0);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public boolean established() {
			try {
				return (boolean) established.handle().invokeExact(0);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public long write(long bytes) {
			try {
				return (long) write.handle().invokeExact(0, bytes);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public void close() {
			try {
				close.handle().invokeExact(0);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public void tcpInfo(ObjLongConsumer<String> out) {
			try {
				info.handle().invokeExact(0, out);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public int flow() {
			return flow;
		}
	}

	/** One flow of a {@code host}'s receiver; the host always listens and sends no data. */
	private static final class HostSocket implements Stack {
		private final int flow;
		private final Call established, info;

		HostSocket(Element e, int flow) {
			this.flow = flow;
			established = new Call(e, "established", boolean.class, int.class);
			info = new Call(e, "tcpInfo", void.class, int.class, ObjLongConsumer.class);
		}

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
			try {
				return (boolean) established.handle().invokeExact(flow);
			} catch (Throwable t) {
				throw rethrow(t);
			}
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
			try {
				info.handle().invokeExact(flow, out);
			} catch (Throwable t) {
				throw rethrow(t);
			}
		}

		@Override
		public int flow() {
			return flow;
		}
	}
}
