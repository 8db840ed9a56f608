package io.ringlab.packetdrill;

import java.util.function.ObjLongConsumer;

/**
 * The socket of the model under test as the executor drives it: the system calls a script makes, mapped onto the
 * model's element (the {@code tcp} sender or the {@code host} receiver) by an adapter in {@code io.ringlab.traffic}
 * ({@code PacketdrillAdapter}), and its {@code tcp_info}. Called on the run's engine thread only, at the simulated time
 * of the script's event. A call the model cannot make throws {@link UnsupportedOperationException} with a message
 * saying what is missing; the executor reports it at the script's line.
 */
public interface Stack {

	/** {@code listen()}: a passive open; the next SYN on the connection's flow is answered with a SYN-ACK. */
	void listen();

	/** {@code connect()}: an active open, the SYN goes out now. */
	void connect();

	/** @return whether the connection reached TCP_ESTABLISHED (the result of {@code accept()}, {@code SO_ERROR}) */
	boolean established();

	/**
	 * {@code write()}: queues {@code bytes} (tcp_sendmsg) and sends what the windows allow at once.
	 *
	 * @return the bytes accepted (the send buffer may take fewer)
	 */
	long write(long bytes);

	/** {@code close()}: a FIN after the queued data. */
	void close();

	/** Every {@code tcp_info} field the model keeps, by its kernel name ({@code tcpi_snd_cwnd}), in kernel units. */
	void tcpInfo(ObjLongConsumer<String> out);

	/** @return the flow number segments of this connection carry ({@code Buffer.flow()}) */
	int flow();
}
