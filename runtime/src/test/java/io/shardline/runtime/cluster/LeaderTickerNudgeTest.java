package io.shardline.runtime.cluster;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.runtime.testing.Await;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaderTicker#nudge()} on a real Vert.x with an interval of an hour: a nudge between passes runs the next
 * one at once, and a nudge during a pass runs another right after it ends; passes never overlap.
 */
class LeaderTickerNudgeTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final Vertx vertx = Vertx.vertx();
    private final AtomicInteger passes = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicInteger overlaps = new AtomicInteger();
    private final AtomicReference<Promise<Void>> hold = new AtomicReference<>();
    private LeaderTicker ticker;

    @AfterEach
    void stop() {
        ticker.close();
        result(vertx.close(), WAIT);
    }

    @Test
    void aNudgeRunsTheNextPassNowOrRightAfterTheRunningOne() {
        ticker = new LeaderTicker(vertx, 3_600_000, () -> true, this::pass, () -> { });
        ticker.start();
        hold.set(Promise.promise());

        ticker.nudge();
        Await.until(() -> passes.get() == 1, WAIT, 5, "the nudged pass");
        ticker.nudge(); // during the pass, held open
        Promise<Void> first = hold.getAndSet(null);
        vertx.runOnContext(v -> first.complete());
        Await.until(() -> passes.get() == 2, WAIT, 5, "the pass right after the running one");

        assertThat(overlaps.get()).as("passes overlapping").isZero();
    }

    private Future<?> pass() {
        passes.incrementAndGet();
        if (running.incrementAndGet() > 1) {
            overlaps.incrementAndGet();
        }
        Promise<Void> held = hold.get();
        Future<Void> done = held == null ? Future.succeededFuture() : held.future();
        return done.onComplete(ar -> running.decrementAndGet());
    }
}
