package io.shardline.runtime.store;

import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.store.MetadataStore;
import io.shardline.coordinator.store.StoreConflictException;
import io.shardline.coordinator.store.StoreState;
import io.vertx.core.Future;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The coordinator's {@link MetadataStore} on Redis: a blocking adapter over {@link RedisGroupLog}
 * (records as JSON by {@link RecordCodec}). Every call is one Lua script, so its guards and writes are
 * atomic; a refused write throws {@link StoreConflictException} as the interface requires.
 *
 * <p>Blocking: call it only from a thread that is not a Vert.x thread (tools, tests); the worker's
 * coordinator host uses the asynchronous {@link RedisGroupLog} directly. Thread-safe.
 */
public final class RedisMetadataStore implements MetadataStore {

    private final RedisGroupLog log;
    private final RecordCodec codec;
    private final String holder;
    private final long timeoutMs;

    /**
     * Creates the store.
     *
     * @param holder the worker id recorded with a claimed leader epoch
     * @param timeoutMs bound for each blocking call
     */
    public RedisMetadataStore(RedisGroupLog log, RecordCodec codec, String holder, long timeoutMs) {
        this.log = Objects.requireNonNull(log, "log");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.holder = Objects.requireNonNull(holder, "holder");
        this.timeoutMs = timeoutMs;
    }

    @Override
    public StoreState claimLeadership() {
        GroupLogState state = await(log.claim(holder, -1)).state();
        return new StoreState(state.leaderEpoch(), state.revision(), codec.decodeAll(state.records()));
    }

    @Override
    public StoreState load() {
        GroupLogState state = await(log.load());
        return new StoreState(state.leaderEpoch(), state.revision(), codec.decodeAll(state.records()));
    }

    @Override
    public long append(long leaderEpoch, long expectedRevision, List<CoordinatorRecord> records) {
        return await(log.append(leaderEpoch, expectedRevision, "", codec.encodeAll(records)));
    }

    @Override
    public long compact(long leaderEpoch, long expectedRevision, List<CoordinatorRecord> snapshot) {
        return await(log.compact(leaderEpoch, expectedRevision, "", codec.encodeAll(snapshot)));
    }

    private <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof StoreFencedException f) {
                throw toConflict(f);
            }
            throw new IllegalStateException("Redis metadata store: " + e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Redis metadata store did not answer within " + timeoutMs + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static StoreConflictException toConflict(StoreFencedException f) {
        StoreConflictException.Kind kind = f.kind() == StoreFencedException.Kind.STALE_LEADER_EPOCH
                ? StoreConflictException.Kind.STALE_LEADER_EPOCH : StoreConflictException.Kind.REVISION_MISMATCH;
        return new StoreConflictException(kind, f.writerEpoch(), f.expectedRevision(), f.currentEpoch(),
                f.currentRevision());
    }
}
