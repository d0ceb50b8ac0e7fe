package io.shardline.runtime.store;

import java.util.List;

/**
 * The group metadata as stored in Redis: leader epoch, store revision, the worker that holds the
 * epoch, and the serialized records (a snapshot followed by the records appended since).
 *
 * <p>Immutable.
 *
 * @param leaderEpoch the current leader epoch (0 before any leader)
 * @param revision the store revision (0 before any write)
 * @param holder the worker id that took {@code leaderEpoch}, or empty
 * @param records serialized records in replay order
 */
public record GroupLogState(long leaderEpoch, long revision, String holder, List<String> records) {

    /** Copies the records. */
    public GroupLogState {
        records = List.copyOf(records);
    }
}
