package io.ringlab.packetdrill;

import java.util.Optional;

/**
 * A {@code --name[=value]} line at the top of a script ({@code --tolerance_usecs=7000}, {@code --ip_version=ipv4},
 * {@code --strict_segments}).
 *
 * @param name the option's name without the leading {@code --}
 * @param value the text after {@code =} (quotes kept, as packetdrill passes it on); empty for a flag option
 */
record OptionLine(int line, int column, String name, Optional<String> value) {
}
