package io.shardline.runtime.shard;

import io.shardline.api.handler.ShardId;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/** Helpers for shard tests: waiting on futures and conditions with deadlines, filling shards. */
final class ShardTesting {

    private ShardTesting() {
    }

    /** Waits up to 15 s for {@code future}; rethrows its failure unwrapped. */
    static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new RuntimeException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("future did not complete in time", e);
        }
    }

    /** Waits until {@code condition} holds, failing with {@code what} after {@code timeoutMs}. */
    static void waitUntil(String what, long timeoutMs, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeoutMs + " ms waiting for: " + what);
            }
            try {
                Thread.sleep(5); // polling interval of the condition, not a stand-in for it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    /** Runs {@code action} on {@code context}; completes once it ran. */
    static Future<Void> on(io.vertx.core.Context context, Runnable action) {
        io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
        context.runOnContext(v -> {
            action.run();
            done.complete();
        });
        return done.future();
    }

    /** The clients blocked on the server now ({@code INFO clients}). */
    static long blockedClients(ShardRedis redis) {
        String info = await(redis.send(Request.cmd(Command.INFO).arg("clients"))).toString();
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("blocked_clients:")) {
                return Long.parseLong(line.substring("blocked_clients:".length()).trim());
            }
        }
        throw new AssertionError("no blocked_clients in INFO clients: " + info);
    }

    /** Appends {@code n} entries {@code n=<i>} to the shard; returns their ids. */
    static List<String> add(ShardRedis redis, ShardId shard, int n) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ids.add(await(redis.send(Request.cmd(Command.XADD).arg(shard.key()).arg("*").arg("n").arg(i))).toString());
        }
        return ids;
    }
}
