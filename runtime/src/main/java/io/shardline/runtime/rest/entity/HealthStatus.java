package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * {@code GET /health}: liveness (the event loop answers) and readiness (joined the cluster, a leader is
 * known, Redis answers). Status {@code healthy} (HTTP 200) when ready, else {@code starting} (503).
 * Immutable.
 *
 * @param status {@code healthy} or {@code starting}
 * @param live always true when this is served
 * @param ready joined, leader known and Redis reachable
 * @param joined whether this worker joined the cluster
 * @param leaderKnown whether a leader is known
 * @param redisReachable whether Redis answered a PING just now
 * @param message what is missing, or {@code "ready"}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record HealthStatus(String status, boolean live, boolean ready, boolean joined, boolean leaderKnown,
                           boolean redisReachable, String message) {

    /** Validates. */
    public HealthStatus {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(message, "message");
    }

    /** Builds the status from its three readiness conditions. */
    public static HealthStatus of(boolean joined, boolean leaderKnown, boolean redisReachable) {
        boolean ready = joined && leaderKnown && redisReachable;
        StringBuilder missing = new StringBuilder();
        if (!joined) {
            missing.append("not joined to the cluster; ");
        }
        if (!leaderKnown) {
            missing.append("no leader known; ");
        }
        if (!redisReachable) {
            missing.append("Redis not reachable; ");
        }
        String message = ready ? "ready" : missing.substring(0, missing.length() - 2);
        return new HealthStatus(ready ? "healthy" : "starting", true, ready, joined, leaderKnown, redisReachable,
                message);
    }
}
