package io.ringlab.packetdrill;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * A reading position in a token list that ends with one end token, shared by the script and the Python readers:
 * {@link #take()} never moves past the end token, so a reader that asks for more finds it and reports "found the end".
 * Not thread-safe.
 *
 * @param <T> the token type
 */
final class TokenCursor<T> {

	private final List<T> tokens;
	private final Predicate<T> isEnd;
	private int next;

	/** @param tokens the tokens, the last of which is the only one {@code isEnd} accepts */
	TokenCursor(List<T> tokens, Predicate<T> isEnd) {
		this.tokens = new ArrayList<>(tokens);
		this.isEnd = isEnd;
	}

	/** The next token, not taken. */
	T peek() {
		return tokens.get(next);
	}

	/** The token after the next one (the end token if there is none). */
	T peekSecond() {
		return tokens.get(Math.min(next + 1, tokens.size() - 1));
	}

	/** The token taken last; {@code null} before the first take. */
	T previous() {
		return next == 0 ? null : tokens.get(next - 1);
	}

	/** The next token, taken; the end token stays next once reached. */
	T take() {
		T t = tokens.get(next);
		if (!isEnd.test(t)) {
			next++;
		}
		return t;
	}

	/** Replaces each token not yet taken by {@code substitute}'s result for it. */
	void substituteAhead(UnaryOperator<T> substitute) {
		for (int i = next; i < tokens.size(); i++) {
			tokens.set(i, substitute.apply(tokens.get(i)));
		}
	}
}
