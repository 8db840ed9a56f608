package io.ringlab.packetdrill;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one table from the sysctls a script sets ({@code `sysctl -q net.ipv4.tcp_sack=0`}, and those of packetdrill's
 * {@code common/defaults.sh}) to the properties of the model's element, the contract of issue 17 section 1. Each
 * sysctl is either a {@link Property} (its value becomes the property's) or {@link Fixed}: the model has no property
 * for it and always behaves as one value; the script may set that value (defaults.sh does) and nothing else. Any other
 * sysctl is refused, naming the script's line.
 */
final class Sysctls {

	private Sysctls() {
	}

	/** How one sysctl reaches the model. */
	sealed interface Mapping permits Property, Fixed {
	}

	/**
	 * The sysctl sets property {@code property}; {@code booleanValue}: the sysctl is 0/1 and the property a boolean.
	 */
	record Property(String property, boolean booleanValue) implements Mapping {
	}

	/**
	 * The model has no property: it behaves as {@code value}, for the reason {@code why}.
	 */
	record Fixed(String value, String why) implements Mapping {
	}

	/** The table, by sysctl name without {@code net.ipv4.} (packetdrill scripts write {@code net.ipv4.NAME}). */
	static final Map<String, Mapping> TABLE = table();

	private static Map<String, Mapping> table() {
		Map<String, Mapping> t = new LinkedHashMap<>();
		t.put("tcp_sack", new Property("sack", true));
		t.put("tcp_dsack", new Property("dsack", true));
		t.put("tcp_timestamps", new Property("timestamps", true));
		t.put("tcp_window_scaling", new Property("windowScaling", true));
		t.put("tcp_frto", new Property("frto", false));
		t.put("tcp_early_retrans", new Property("earlyRetrans", false));
		t.put("tcp_recovery", new Property("tcpRecovery", false));
		t.put("tcp_fack", new Property("fack", true));
		t.put("tcp_reordering", new Property("reordering", false));
		t.put("tcp_rmem", new Property("tcpRmem", false));
		t.put("tcp_wmem", new Property("tcpWmem", false));
		t.put("tcp_congestion_control", new Property("congestion", false));
		t.put("tcp_slow_start_after_idle", new Property("slowStartAfterIdle", true));
		// the model has no property for these: it behaves as the value given, which is defaults.sh's
		t.put("tcp_ecn", new Fixed("0", "the model does not negotiate ECN"));
		t.put("tcp_ecn_option", new Fixed("2", "no AccECN: the option is never sent"));
		t.put("tcp_syn_retries", new Fixed("5", "no script here loses a SYN more than 5 times"));
		t.put("tcp_synack_retries", new Fixed("5", "no script here loses a SYN-ACK more than 5 times"));
		t.put("tcp_tso_win_divisor", new Fixed("3", "the model does not defer TSO (tcp_tso_should_defer);"
				+ " it sends what the windows allow at once"));
		t.put("tcp_pacing_ss_ratio", new Fixed("200", "the model does not pace (no fq, as defaults.sh's pfifo)"));
		t.put("tcp_pacing_ca_ratio", new Fixed("120", "the model does not pace (no fq, as defaults.sh's pfifo)"));
		t.put("tcp_notsent_lowat", new Fixed("4294967295", "no TCP_NOTSENT_LOWAT limit (the sysctl's 'off')"));
		t.put("tcp_fastopen", new Fixed("0x70403", "no Fast Open: a script that uses it is refused at its FO option"));
		t.put("tcp_fastopen_key", new Fixed(null, "no Fast Open"));
		t.put("tcp_syncookies", new Fixed("1", "SYN cookies are sent only when the SYN queue overflows, never here"));
		return t;
	}

	/**
	 * packetdrill's {@code gtests/net/common/defaults.sh} (google/packetdrill 2c4001c, last changed 37f9c52), as
	 * research/linux-tcp.md section 10 lists it: the sysctls it sets, in its order. Its other commands (flushing
	 * {@code ip tcp_metrics}, a pfifo root qdisc on tun0) have no counterpart: the model keeps no route metrics and the
	 * executor connects it straight to the peer.
	 */
	static final List<Map.Entry<String, String>> DEFAULTS_SH = List.of(Map.entry("tcp_rmem", "4096 540000 15728640"),
			Map.entry("tcp_wmem", "4096 262144 4194304"), Map.entry("tcp_timestamps", "1"),
			Map.entry("tcp_syn_retries", "5"), Map.entry("tcp_synack_retries", "5"), Map.entry("tcp_frto", "2"),
			Map.entry("tcp_sack", "1"), Map.entry("tcp_dsack", "1"), Map.entry("tcp_fack", "0"),
			Map.entry("tcp_reordering", "3"), Map.entry("tcp_congestion_control", "cubic"),
			Map.entry("tcp_slow_start_after_idle", "0"), Map.entry("tcp_early_retrans", "4"),
			Map.entry("tcp_recovery", "1"), Map.entry("tcp_tso_win_divisor", "3"), Map.entry("tcp_ecn", "0"),
			Map.entry("tcp_ecn_option", "2"), Map.entry("tcp_pacing_ss_ratio", "200"),
			Map.entry("tcp_pacing_ca_ratio", "120"), Map.entry("tcp_notsent_lowat", "4294967295"),
			Map.entry("tcp_fastopen", "0x70403"), Map.entry("tcp_syncookies", "1"));

	/** The init commands taken for defaults.sh, as scripts in gtests/net/tcp/FOLDER/ and FOLDER/SUB/ write them. */
	static final List<String> DEFAULTS_SH_PATHS = List.of("../common/defaults.sh", "../../common/defaults.sh");

	/**
	 * Applies one sysctl to the model's properties.
	 *
	 * @param name as written ({@code net.ipv4.tcp_sack})
	 * @param value as written, quotes removed
	 * @param properties the element's properties so far, by name; the property is put here
	 * @return empty, or why the sysctl is refused (what is allowed)
	 */
	static Optional<String> apply(String name, String value, Map<String, String> properties) {
		String key = name.startsWith("net.ipv4.") ? name.substring("net.ipv4.".length()) : name;
		Mapping m = name.startsWith("net.ipv4.") ? TABLE.get(key) : null;
		if (m == null) {
			return Optional.of("sysctl " + name + " has no counterpart in the model; mapped are net.ipv4."
					+ String.join(", net.ipv4.", TABLE.keySet()));
		}
		return switch (m) {
			case Property p -> {
				if (value.contains("$(")) {
					yield Optional.of("sysctl " + name + "=" + value + ": shell arithmetic is not evaluated");
				}
				String v = value.strip().replaceAll("\\s+", " ");
				if (p.booleanValue()) {
					if (!v.equals("0") && !v.equals("1")) {
						yield Optional.of("sysctl " + name + "=" + value + ": allowed are 0 and 1");
					}
					v = v.equals("1") ? "true" : "false";
				} else if (v.contains(" ")) {
					v = "\"" + v + "\"";
				}
				properties.put(p.property(), v);
				yield Optional.empty();
			}
			case Fixed f -> f.value() == null || f.value().equals(value.strip()) ? Optional.empty()
					: Optional.of("sysctl " + name + "=" + value + ": the model has no property for it and behaves as "
							+ f.value() + " (" + f.why() + ")");
		};
	}
}
