package io.shardline.api.config;

/**
 * How much a user needs to care about a key; orders keys within a group in generated docs.
 *
 * <p>Immutable.
 */
public enum Importance {
    /** Must usually be set or understood before running in production. */
    HIGH,
    /** Tuning that matters for some deployments. */
    MEDIUM,
    /** Rarely changed. */
    LOW
}
