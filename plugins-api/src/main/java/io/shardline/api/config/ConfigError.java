package io.shardline.api.config;

import java.util.Objects;

/**
 * One problem found in a configuration: which key, the offending value as it may be shown (never a
 * secret), where it came from, and why it is wrong.
 *
 * <p>Immutable.
 *
 * @param key the key, or {@code null} for a problem with the whole source (e.g. an unreadable file)
 * @param value the value as written, {@code [hidden]} for passwords, or {@code null} when the key is missing
 * @param file the file the value came from, or {@code null} when not from a file
 * @param line the 1-based line in {@code file}, or {@code 0} when unknown
 * @param reason why the value is wrong, phrased so that it says what would be right
 */
public record ConfigError(String key, String value, String file, int line, String reason) {

    /** Validates the reason is present and the line is not negative. */
    public ConfigError {
        Objects.requireNonNull(reason, "reason");
        if (line < 0) {
            throw new IllegalArgumentException("line must be >= 0: " + line);
        }
    }

    /**
     * One line for a user, e.g.
     * {@code worker.properties:12: session.timeout.ms = "abc": not an int}.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (file != null) {
            sb.append(file);
            if (line > 0) {
                sb.append(':').append(line);
            }
            sb.append(": ");
        }
        if (key != null) {
            sb.append(key);
            if (value != null) {
                sb.append(" = \"").append(value).append('"');
            }
            sb.append(": ");
        }
        return sb.append(reason).toString();
    }
}
