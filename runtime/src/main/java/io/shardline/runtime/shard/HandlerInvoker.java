package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.runtime.plugin.HandlerPlugin;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs handler calls on the member's named {@link WorkerExecutor} (never on an event loop), under the
 * plugin's class loader ({@link HandlerPlugin}), with {@code handler.timeout.ms}: a call still running
 * then fails with a {@link TimeoutException}, its thread is interrupted and an async stage is cancelled.
 * A timed-out call that ignores the interruption keeps its worker thread until it returns; the pool
 * has spare threads for that, so one hung handler does not stall the member's other shards.
 * Thread-safe.
 */
final class HandlerInvoker {

    private final HandlerPlugin handler;
    private final WorkerExecutor executor;
    private final long timeoutMs;

    HandlerInvoker(HandlerPlugin handler, WorkerExecutor executor, long timeoutMs) {
        this.handler = handler;
        this.executor = executor;
        this.timeoutMs = timeoutMs;
    }

    /** Handles one batch; the future fails when the handler threw, failed its stage or timed out. */
    Future<Void> invoke(ShardContext shard, List<StreamRecord> records) {
        return invoke(shard, records, MemberLease.unbounded());
    }

    /**
     * Handles one batch if {@code lease} is still valid on the handler thread, right before the handler is called;
     * otherwise the future fails with a {@link LeaseLapsedException} and the handler never sees the batch.
     */
    Future<Void> invoke(ShardContext shard, List<StreamRecord> records, MemberLease lease) {
        Call call = new Call();
        return executor.<CompletionStage<Void>>executeBlocking(() -> {
            if (!lease.valid()) {
                throw new LeaseLapsedException("the lease of member " + shard.handlerContext().memberId()
                        + " ran out before its batch of " + records.size() + " record(s) of " + shard.shard()
                        + " reached the handler (" + lease + ")");
            }
            call.enter();
            try {
                CompletionStage<Void> stage = handler.handleBatch(records, shard);
                if (stage instanceof CompletableFuture<Void> done && done.isDone() && !done.isCompletedExceptionally()) {
                    return null; // a synchronous handler's finished stage: no stage to wait for on the event loop
                }
                call.stage = stage;
                return stage;
            } finally {
                call.exit();
            }
        }, false)
                .compose(stage -> stage == null ? Future.succeededFuture() : Future.fromCompletionStage(stage))
                .timeout(timeoutMs, TimeUnit.MILLISECONDS)
                .recover(e -> {
                    if (e instanceof TimeoutException) {
                        call.abort();
                        return Future.failedFuture(new TimeoutException("handler " + handler.desc().alias()
                                + " did not finish a batch of " + records.size() + " within handler.timeout.ms=" + timeoutMs));
                    }
                    return Future.failedFuture(e);
                });
    }

    /** Runs lifecycle code (start, stop, shard callbacks) on the worker pool. */
    Future<Void> run(java.util.concurrent.Callable<Void> code) {
        return executor.executeBlocking(code, false);
    }

    /** One call's thread, so that a timeout can interrupt exactly this call. */
    private static final class Call {
        private Thread thread;
        private volatile CompletionStage<Void> stage;
        private boolean aborted;

        synchronized void enter() {
            thread = Thread.currentThread();
        }

        synchronized void exit() {
            thread = null;
            if (aborted) {
                Thread.interrupted(); // do not leak our interrupt into the pool's next task
            }
        }

        synchronized void abort() {
            aborted = true;
            if (thread != null) {
                thread.interrupt();
            }
            CompletionStage<Void> s = stage;
            if (s != null) {
                s.toCompletableFuture().cancel(true);
            }
        }
    }
}
