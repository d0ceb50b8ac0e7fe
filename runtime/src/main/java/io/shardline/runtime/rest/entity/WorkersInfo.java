package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * {@code GET /workers}: the live workers and the leader. Immutable.
 *
 * @param leaderId the leader's worker id, {@code null} while none is known
 * @param workers the live workers, sorted by id
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkersInfo(String leaderId, List<WorkerInfo> workers) {

    /** Copies. */
    public WorkersInfo {
        workers = List.copyOf(workers);
    }
}
