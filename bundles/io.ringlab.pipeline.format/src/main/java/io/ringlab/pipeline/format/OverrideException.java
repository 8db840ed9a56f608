package io.ringlab.pipeline.format;

/**
 * A {@code --set} argument does not follow {@code ELEMENT.PROPERTY=VALUE}. The message shows the argument and what was
 * expected, for example {@code --set 'eth0bql=true': expected ELEMENT.PROPERTY=VALUE}, and is meant to be shown to the
 * user as it is.
 *
 * @see Overrides#parse(String)
 */
public final class OverrideException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong and what was expected; must not be {@code null}
     */
    public OverrideException(String message) {
        super(message);
    }
}
