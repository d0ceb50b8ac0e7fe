package io.shardline.runtime.redis;

import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs one asynchronous step per item, {@code chunk} items at a time, the next chunk when the last one ended: what
 * is done per shard of a listener (creating its consumer groups at start, status reads, position reads and moves,
 * a group's key removal) keeps at most
 * {@code chunk} items' commands in flight however many shards there are, instead of all of them at once in the
 * Redis client's wait queue (docs/reliability.md, "Overload"). Stops at the first failure. Stateless.
 */
public final class Chunked {

    /** Items in flight at once for per-shard work on the shared pool: well below {@code redis.pool.waiting}. */
    public static final int POOL_CHUNK = 32;

    private Chunked() {
    }

    /** The results of {@code step} over {@code items}, in their order. */
    public static <T, R> Future<List<R>> map(List<T> items, int chunk, Function<T, Future<R>> step) {
        List<R> out = new ArrayList<>(items.size());
        return from(0, items, chunk, step, out).map(v -> out);
    }

    private static <T, R> Future<Void> from(int start, List<T> items, int chunk, Function<T, Future<R>> step,
                                            List<R> out) {
        if (start >= items.size()) {
            return Future.succeededFuture();
        }
        List<T> part = items.subList(start, Math.min(items.size(), start + chunk));
        List<Future<R>> running = new ArrayList<>(part.size());
        for (T item : part) {
            running.add(step.apply(item));
        }
        return Future.all(running).compose(done -> {
            for (int i = 0; i < part.size(); i++) {
                out.add(done.resultAt(i));
            }
            return from(start + part.size(), items, chunk, step, out);
        });
    }
}
