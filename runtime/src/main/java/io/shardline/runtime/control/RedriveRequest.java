package io.shardline.runtime.control;

import java.util.List;
import java.util.Objects;

/**
 * Which dead letters to write back and where ({@code POST /listeners/{name}/dead-letters/redrive}). Immutable.
 *
 * @param ids the dead letters' ids in the dead-letter stream (empty with {@code all})
 * @param all every dead letter of the listener
 * @param toStream a stream key to write them to; {@code null}: back to the shard of their stream that their key routes
 *     to under the stream's topology (as the producer routes it)
 */
public record RedriveRequest(List<String> ids, boolean all, String toStream) {

    /** Validates and copies: exactly one of {@code ids} (non-empty) or {@code all}. */
    public RedriveRequest {
        ids = List.copyOf(Objects.requireNonNull(ids, "ids"));
        if (all == !ids.isEmpty()) {
            throw ControlPlaneException.badRequest("request body: exactly one of \"ids\" (a non-empty list of dead-letter"
                    + " ids) or \"all\": true is required");
        }
        if (toStream != null && toStream.isBlank()) {
            throw ControlPlaneException.badRequest("to_stream: must be a non-blank stream key when given");
        }
    }
}
