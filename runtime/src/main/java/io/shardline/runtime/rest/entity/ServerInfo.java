package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * {@code GET /}: which worker answered. Immutable.
 *
 * @param version the Shardline version of the serving worker
 * @param clusterName the cluster it belongs to
 * @param workerId its id
 * @param leaderId the current leader's worker id, {@code null} while none is known
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServerInfo(String version, String clusterName, String workerId, String leaderId) {

    /** Validates. */
    public ServerInfo {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(workerId, "workerId");
    }
}
