package io.shardline.runtime.redis;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/** Fails a future that has not completed in time. Stateless; package-private. */
final class Timeouts {

    private Timeouts() {
    }

    /**
     * A future completed by {@code future} or failed with {@link RedisTimeoutException} after
     * {@code timeoutMs}, whichever comes first; {@code onTimeout} runs when the timeout wins.
     */
    static <T> Future<T> within(Vertx vertx, Future<T> future, long timeoutMs, String command, Runnable onTimeout) {
        Promise<T> promise = Promise.promise();
        long timer = vertx.setTimer(timeoutMs, id -> {
            if (promise.tryFail(new RedisTimeoutException(command, timeoutMs))) {
                onTimeout.run();
            }
        });
        future.onComplete(ar -> {
            vertx.cancelTimer(timer);
            if (ar.succeeded()) {
                promise.tryComplete(ar.result());
            } else {
                promise.tryFail(ar.cause());
            }
        });
        return promise.future();
    }
}
