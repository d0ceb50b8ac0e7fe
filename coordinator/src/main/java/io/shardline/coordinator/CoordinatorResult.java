package io.shardline.coordinator;

import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.List;

/**
 * What a coordinator call decided: the records to persist, the answer, and the audit events. Immutable.
 *
 * <p>The coordinator has already replayed {@code records} into its own state. The host must append them, with the
 * audit events, to the group log under its leader epoch and the store revision (docs/protocol.md, section 8;
 * even when empty: the append confirms the host is still the leader), then write the owner key of every {@link io.shardline.coordinator.record.ShardOwnerRecord}, and
 * only then send {@code response}. If the append fails the host must not answer and must discard this
 * coordinator instance (a new leader rebuilds from the group log).
 *
 * @param records the decisions, in order
 * @param response the answer (null for calls without one, e.g. {@code tick})
 * @param events the audit events, in order
 * @param <T> the answer type
 */
public record CoordinatorResult<T>(List<CoordinatorRecord> records, T response, List<AuditEvent> events) {

    /** Copies. */
    public CoordinatorResult {
        records = List.copyOf(records);
        events = List.copyOf(events);
    }

    /** A result without audit events. */
    public CoordinatorResult(List<CoordinatorRecord> records, T response) {
        this(records, response, List.of());
    }
}
