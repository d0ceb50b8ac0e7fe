package io.shardline.runtime.retention;

import java.util.Map;

/**
 * How much of a stream retention keeps: at most {@code maxLength} entries per shard and entries no older than
 * {@code maxAgeMs}; 0 means no limit of that kind. Whichever limit removes more applies, and never beyond what a
 * consumer group still needs (docs/operations.md, "Retention"). Immutable.
 *
 * @param maxLength the most entries a shard keeps, 0 for no limit
 * @param maxAgeMs the oldest entry a shard keeps, in ms before now, 0 for no limit
 */
public record RetentionPolicy(long maxLength, long maxAgeMs) {

    /** The listener key of the length limit. */
    public static final String MAX_LENGTH_CONFIG = "retention.max.length";
    /** The listener key of the age limit. */
    public static final String MAX_AGE_CONFIG = "retention.max.age.ms";
    /** No retention: the stream is never trimmed. */
    public static final RetentionPolicy NONE = new RetentionPolicy(0, 0);

    /** Validates. */
    public RetentionPolicy {
        if (maxLength < 0 || maxAgeMs < 0) {
            throw new IllegalArgumentException("retention limits must be >= 0, got length " + maxLength + ", age "
                    + maxAgeMs + " ms");
        }
    }

    /** The policy a listener's raw configuration declares ({@link #NONE} when it sets neither key). */
    public static RetentionPolicy of(Map<String, String> config) {
        return new RetentionPolicy(number(config, MAX_LENGTH_CONFIG), number(config, MAX_AGE_CONFIG));
    }

    /** Whether this policy keeps everything. */
    public boolean isNone() {
        return maxLength == 0 && maxAgeMs == 0;
    }

    /** The policy as its listener keys, for messages. */
    public String describe() {
        return MAX_LENGTH_CONFIG + "=" + maxLength + ", " + MAX_AGE_CONFIG + "=" + maxAgeMs;
    }

    private static long number(Map<String, String> config, String key) {
        String value = config.get(key);
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0; // reported by the listener definition's validation
        }
    }
}
