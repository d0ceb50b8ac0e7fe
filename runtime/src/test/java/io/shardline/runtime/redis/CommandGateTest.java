package io.shardline.runtime.redis;

import static io.shardline.runtime.testing.Await.failure;
import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CommandGateTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Vertx vertx;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        result(vertx.close(), WAIT);
    }

    @Test
    void atMostMaxRunAndTheOthersStartInOrderAsPlacesFree() {
        CommandGate gate = new CommandGate(vertx, 2, 10, 60_000);
        List<Promise<String>> running = new CopyOnWriteArrayList<>();
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(gate.run(() -> {
                Promise<String> p = Promise.promise();
                running.add(p);
                return p.future();
            }));
        }
        assertThat(running).hasSize(2);
        assertThat(gate.inFlight()).isEqualTo(2);

        running.get(0).complete("a");
        awaitSize(running, 3);
        running.get(1).fail("b failed");
        awaitSize(running, 4);
        running.get(2).complete("c");
        running.get(3).complete("d");
        awaitSize(running, 5);
        running.get(4).complete("e");

        assertThat(result(results.get(0), WAIT)).isEqualTo("a");
        assertThat(failure(results.get(1), WAIT)).hasMessage("b failed");
        assertThat(result(results.get(4), WAIT)).isEqualTo("e");
        assertThat(gate.inFlight()).isZero();
    }

    @Test
    void beyondTheWaitingLimitACommandFailsAtOnce() {
        CommandGate gate = new CommandGate(vertx, 1, 1, 60_000);
        gate.run(() -> Promise.<String>promise().future());
        gate.run(() -> Future.succeededFuture("waits"));
        assertThat(failure(gate.run(() -> Future.succeededFuture("refused")), WAIT))
                .isInstanceOf(RedisDisconnectedException.class)
                .hasMessageContaining("redis.pool.waiting");
    }

    @Test
    void aCommandThatNeverEndsGivesItsPlaceBackAfterTheReleaseTime() {
        CommandGate gate = new CommandGate(vertx, 1, 10, 200);
        Future<String> hung = gate.run(() -> Promise.<String>promise().future());
        assertThat(result(gate.run(() -> Future.succeededFuture("next")), WAIT)).isEqualTo("next");
        assertThat(hung.isComplete()).isFalse();
    }

    private static void awaitSize(List<?> list, int size) {
        long end = System.nanoTime() + WAIT.toNanos();
        while (list.size() < size) {
            if (System.nanoTime() > end) {
                throw new AssertionError("expected " + size + " started commands, got " + list.size());
            }
            Thread.onSpinWait();
        }
    }
}
