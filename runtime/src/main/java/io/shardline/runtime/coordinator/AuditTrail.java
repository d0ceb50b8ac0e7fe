package io.shardline.runtime.coordinator;

import io.shardline.coordinator.AuditEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The most recent audit events of every group the leader hosts, kept in memory (at most {@code capacity} per
 * group, the oldest dropped first) for {@code GET /groups/{group}/audit}. A new leader starts empty: audit
 * events explain recent decisions, they are not the group's state (that is the record log in Redis).
 *
 * <p>Not thread-safe: the coordinator host touches it on its own context only.
 */
final class AuditTrail {

    private final int capacity;
    private final Map<String, Deque<AuditEvent>> byGroup = new HashMap<>();

    /** A trail keeping at most {@code capacity} events per group. */
    AuditTrail(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Appends {@code events} (in order), dropping the oldest of a group beyond the capacity. */
    void addAll(List<AuditEvent> events) {
        for (AuditEvent e : events) {
            Deque<AuditEvent> q = byGroup.computeIfAbsent(e.groupId(), k -> new ArrayDeque<>());
            q.addLast(e);
            while (q.size() > capacity) {
                q.removeFirst();
            }
        }
    }

    /** The last {@code limit} events of {@code groupId}, oldest first (empty when none). */
    List<AuditEvent> recent(String groupId, int limit) {
        Deque<AuditEvent> q = byGroup.get(groupId);
        if (q == null || limit <= 0) {
            return List.of();
        }
        List<AuditEvent> all = new ArrayList<>(q);
        return List.copyOf(all.subList(Math.max(0, all.size() - limit), all.size()));
    }

    /** Forgets everything (when this worker stops leading). */
    void clear() {
        byGroup.clear();
    }
}
