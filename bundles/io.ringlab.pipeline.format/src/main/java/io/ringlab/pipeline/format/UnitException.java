package io.ringlab.pipeline.format;

/**
 * A value does not follow its grammar or is out of its property's range. The message says what the text is not and
 * what is accepted, for example {@code '100Mbt' is not a rate: write a number followed by bit, kbit, ...}, and is meant
 * to be shown to the user as it is.
 *
 * @see Units
 */
public final class UnitException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong and what is accepted; must not be {@code null}
     */
    public UnitException(String message) {
        super(message);
    }
}
