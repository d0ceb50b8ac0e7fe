package io.shardline.runtime.redis;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What {@code INFO server} says about the Redis server we talk to: its version and its {@code run_id}
 * (a new random id on every server start: a changed id means the server restarted and may have lost
 * everything written since its last save).
 *
 * <p>Immutable.
 *
 * @param major major version
 * @param minor minor version
 * @param patch patch version
 * @param runId the server's run id; on a Redis Cluster the run ids of all primaries, sorted, joined by {@code ,}
 * @param mode {@code standalone}, {@code cluster} or {@code sentinel}
 */
public record RedisServerInfo(int major, int minor, int patch, String runId, String mode) {

    /** Validates the fields. */
    public RedisServerInfo {
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(mode, "mode");
    }

    /**
     * Parses the text of {@code INFO server}.
     *
     * @throws IllegalArgumentException when {@code redis_version} or {@code run_id} is missing
     */
    public static RedisServerInfo parse(String info) {
        String version = null;
        String runId = null;
        String mode = "standalone";
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).trim();
            String value = line.substring(colon + 1).trim();
            switch (key) {
                case "redis_version" -> version = value;
                case "run_id" -> runId = value;
                case "redis_mode" -> mode = value;
                default -> {
                    // other fields are not needed
                }
            }
        }
        if (version == null || runId == null) {
            throw new IllegalArgumentException("INFO server reply has no redis_version or run_id");
        }
        String[] parts = version.split("\\.");
        return new RedisServerInfo(part(parts, 0), part(parts, 1), part(parts, 2), runId, mode);
    }

    /**
     * The identity of a Redis Cluster from its primaries' {@code INFO server}: the lowest version (a command is
     * there only if every node has it), the primaries' run ids sorted and joined by {@code ,} (so it changes when
     * any primary restarts, is replaced by a replica, joins or leaves), mode {@code cluster}.
     *
     * @throws IllegalArgumentException when {@code primaries} is empty
     */
    public static RedisServerInfo ofPrimaries(List<RedisServerInfo> primaries) {
        if (primaries.isEmpty()) {
            throw new IllegalArgumentException("a Redis Cluster answered INFO from no primary");
        }
        RedisServerInfo lowest = primaries.stream()
                .min(Comparator.comparingInt(RedisServerInfo::major).thenComparingInt(RedisServerInfo::minor)
                        .thenComparingInt(RedisServerInfo::patch))
                .orElseThrow();
        String runIds = primaries.stream().map(RedisServerInfo::runId).sorted().collect(Collectors.joining(","));
        return new RedisServerInfo(lowest.major(), lowest.minor(), lowest.patch(), runIds, "cluster");
    }

    /** Whether the server is at least {@code major.minor}. */
    public boolean atLeast(int wantMajor, int wantMinor) {
        return major > wantMajor || major == wantMajor && minor >= wantMinor;
    }

    /** Whether {@code XACKDEL} exists (Redis 8.2 and later). */
    public boolean supportsXackdel() {
        return atLeast(8, 2);
    }

    /** Version as {@code major.minor.patch}. */
    public String version() {
        return major + "." + minor + "." + patch;
    }

    private static int part(String[] parts, int i) {
        if (i >= parts.length) {
            return 0;
        }
        String digits = parts[i].replaceAll("[^0-9].*$", "");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }
}
