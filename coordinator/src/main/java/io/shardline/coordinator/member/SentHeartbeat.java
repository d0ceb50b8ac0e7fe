package io.shardline.coordinator.member;

import io.shardline.coordinator.protocol.HeartbeatRequest;
import java.util.Objects;

/**
 * A heartbeat to send, with the id the runtime passes back with its answer (or its failure). Immutable.
 *
 * @param requestId the id of this request within the member (grows by one per request)
 * @param request the request
 */
public record SentHeartbeat(long requestId, HeartbeatRequest request) {

    /** Validates. */
    public SentHeartbeat {
        Objects.requireNonNull(request, "request");
    }
}
