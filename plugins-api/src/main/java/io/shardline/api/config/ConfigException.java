package io.shardline.api.config;

import java.util.List;

/**
 * Thrown when a configuration is invalid; carries every {@link ConfigError} found, not just the
 * first. The message lists them one per line, so it can be shown to a user as is.
 */
public class ConfigException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The errors, in the order found (file order, then missing keys, then cross-field rules). */
    private final transient List<ConfigError> errors;

    /**
     * Creates the exception.
     *
     * @param errors at least one error
     */
    public ConfigException(List<ConfigError> errors) {
        super(message(errors));
        this.errors = List.copyOf(errors);
    }

    /** Every error found. */
    public List<ConfigError> errors() {
        return errors;
    }

    private static String message(List<ConfigError> errors) {
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one error");
        }
        StringBuilder sb = new StringBuilder("Invalid configuration (")
                .append(errors.size())
                .append(errors.size() == 1 ? " error):" : " errors):");
        for (ConfigError error : errors) {
            sb.append(System.lineSeparator()).append("  ").append(error);
        }
        return sb.toString();
    }
}
