package io.shardline.api.config;

/**
 * The type of a configuration key; decides how its text is parsed and how its value is shown.
 *
 * <p>Immutable.
 */
public enum ConfigType {
    /** Trimmed text. */
    STRING,
    /** A 32-bit signed integer. */
    INT,
    /** A 64-bit signed integer. */
    LONG,
    /** A finite double. */
    DOUBLE,
    /** {@code true} or {@code false} (case-insensitive); nothing else. */
    BOOLEAN,
    /** Comma-separated, each element trimmed, empty elements dropped; an immutable {@code List<String>}. */
    LIST,
    /** A secret: never printed (shown as {@code [hidden]}); a {@link Password}. */
    PASSWORD,
    /** A fully qualified Java class name (syntax checked only; loading is the caller's business). */
    CLASS;

    /** Text shown in documentation. */
    public String displayName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
