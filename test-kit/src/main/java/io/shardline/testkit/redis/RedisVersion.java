package io.shardline.testkit.redis;

import java.util.Objects;

/**
 * The version of a Redis server, as its {@code INFO server} section reports it ({@code redis_version}).
 * Immutable.
 *
 * @param major major version, e.g. 7
 * @param minor minor version, e.g. 0
 * @param patch patch version, e.g. 15
 */
public record RedisVersion(int major, int minor, int patch) implements Comparable<RedisVersion> {

    /** Parses {@code "7.0.15"}; missing parts count as 0. */
    public static RedisVersion parse(String text) {
        Objects.requireNonNull(text, "text");
        String[] parts = text.trim().split("\\.");
        try {
            int major = Integer.parseInt(parts[0]);
            int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            int patch = parts.length > 2 ? Integer.parseInt(parts[2]) : 0;
            return new RedisVersion(major, minor, patch);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a Redis version: '" + text + "'", e);
        }
    }

    /** True when this version is {@code major.minor} or newer (e.g. {@code atLeast(8, 2)} for XACKDEL). */
    public boolean atLeast(int major, int minor) {
        return compareTo(new RedisVersion(major, minor, 0)) >= 0;
    }

    @Override
    public int compareTo(RedisVersion other) {
        int c = Integer.compare(major, other.major);
        if (c == 0) {
            c = Integer.compare(minor, other.minor);
        }
        return c != 0 ? c : Integer.compare(patch, other.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
