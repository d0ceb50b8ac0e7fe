package io.shardline.coordinator.store;

import io.shardline.coordinator.record.CoordinatorRecord;
import java.util.List;

/**
 * Where the coordinator's records live (Redis in production, memory in tests), guarded twice:
 *
 * <ul>
 *   <li>a <b>leader epoch</b> that only grows: {@link #claimLeadership()} bumps it, and every write carries the
 *       writer's leader epoch; a write with an older one is refused, so a deposed leader that keeps running can
 *       never overwrite its successor;</li>
 *   <li>a <b>store revision</b>: every write carries the revision the writer last saw (compare-and-set), so a
 *       process that resumes with an old snapshot cannot write over newer state.</li>
 * </ul>
 *
 * <p>An {@link #append} of no records changes nothing but still checks both guards: the host uses it to confirm
 * it is still the leader before answering a heartbeat that decided nothing. Implementations must make each call
 * atomic (one Lua script in Redis).
 */
public interface MetadataStore {

    /**
     * Becomes leader: atomically increments the leader epoch and returns it with the revision and the records
     * to replay. Every write of an earlier leader fails from now on.
     */
    StoreState claimLeadership();

    /** The current state, for reading (followers, REST). */
    StoreState load();

    /**
     * Appends {@code records} if {@code leaderEpoch} is the store's leader epoch and {@code expectedRevision} its
     * revision.
     *
     * @return the new revision ({@code expectedRevision + 1}, or unchanged for an empty append)
     * @throws StoreConflictException when a guard fails; nothing was written
     */
    long append(long leaderEpoch, long expectedRevision, List<CoordinatorRecord> records);

    /**
     * Replaces the whole log by {@code snapshot} (the coordinator's {@code snapshot()}), under the same guards.
     *
     * @return the new revision ({@code expectedRevision + 1})
     * @throws StoreConflictException when a guard fails; nothing was written
     */
    long compact(long leaderEpoch, long expectedRevision, List<CoordinatorRecord> snapshot);
}
