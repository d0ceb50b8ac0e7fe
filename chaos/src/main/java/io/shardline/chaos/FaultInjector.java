package io.shardline.chaos;

import io.shardline.testkit.redis.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Carries out one planned fault on the live processes and returns what happened and when. The waits here
 * are the faults' own durations (a pause lasts 1.5 session timeouts, a killed worker stays dead for a session
 * timeout plus 2 s so that its shards fail over first), not waits for conditions. Not thread-safe: the
 * runner injects one fault at a time.
 */
final class FaultInjector {

    private static final Duration JOIN_TIMEOUT = Duration.ofSeconds(300);
    private static final long REDIS_DOWN_MS = 1_000;

    private final ChaosSettings settings;
    private final WorkerFleet fleet;
    private final RedisServer redis;
    private final LongSupplier clock;

    FaultInjector(ChaosSettings settings, WorkerFleet fleet, RedisServer redis, LongSupplier clock) {
        this.settings = settings;
        this.fleet = fleet;
        this.redis = redis;
        this.clock = clock;
    }

    /** Injects the fault; empty when it had no target (e.g. no live non-leader worker). */
    Optional<FaultEvent> inject(FaultSchedule.Planned planned) throws InterruptedException {
        Optional<WorkerProcess> leader = fleet.leader(redis.host(), redis.port());
        FaultKind kind = planned.kind();
        switch (kind) {
            case KILL_WORKER, PAUSE_WORKER, RESTART_WORKER -> {
                List<WorkerProcess> others = fleet.workers().stream()
                        .filter(w -> w.alive() && leader.map(l -> l != w).orElse(true)).toList();
                return others.isEmpty() ? Optional.empty()
                        : Optional.of(onWorker(kind, others.get(planned.pick() % others.size())));
            }
            case KILL_LEADER, PAUSE_LEADER -> {
                return leader.map(l -> uncheckedOnWorker(kind, l));
            }
            case ROLLING_RESTART -> {
                return Optional.of(rollingRestart());
            }
            case KILL_REDIS -> {
                long start = clock.getAsLong();
                redis.kill();
                Thread.sleep(REDIS_DOWN_MS);
                redis.startAgain();
                return Optional.of(new FaultEvent(kind, "redis", start, clock.getAsLong()));
            }
            default -> throw new IllegalStateException("unknown fault " + kind);
        }
    }

    private FaultEvent uncheckedOnWorker(FaultKind kind, WorkerProcess w) {
        try {
            return onWorker(kind, w);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during " + kind, e);
        }
    }

    private FaultEvent onWorker(FaultKind kind, WorkerProcess w) throws InterruptedException {
        long start = clock.getAsLong();
        long inEffect;
        switch (kind) {
            case KILL_WORKER, KILL_LEADER -> {
                w.kill();
                inEffect = clock.getAsLong();
                Thread.sleep(settings.sessionTimeoutMs() + 2_000L);
                restart(w);
            }
            case PAUSE_WORKER, PAUSE_LEADER -> {
                w.pause();
                inEffect = clock.getAsLong(); // kill -STOP returned: stopped from here on, at the latest
                Thread.sleep(settings.pauseMs());
                w.resume();
            }
            case RESTART_WORKER -> {
                stop(w);
                restart(w);
                inEffect = Long.MAX_VALUE; // a graceful restart has no single moment of effect: its end

            }
            default -> throw new IllegalStateException(kind + " is not a single-worker fault");
        }
        long end = clock.getAsLong();
        return new FaultEvent(kind, w.id(), start, end, Math.min(inEffect, end));
    }

    private FaultEvent rollingRestart() throws InterruptedException {
        long start = clock.getAsLong();
        for (WorkerProcess w : fleet.workers()) {
            stop(w);
            restart(w);
            Thread.sleep(settings.sessionTimeoutMs()); // let the group settle between two bounces, as Kafka's tests do
        }
        return new FaultEvent(FaultKind.ROLLING_RESTART, "all", start, clock.getAsLong());
    }

    private void stop(WorkerProcess w) throws InterruptedException {
        if (!w.stopGracefully(Duration.ofMillis(settings.rebalanceTimeoutMs() + 5_000L))) {
            System.out.println("chaos: warning: worker " + w.id() + " did not stop cleanly (forced or non-zero exit)");
        }
    }

    private void restart(WorkerProcess w) throws InterruptedException {
        w.start(clock.getAsLong());
        w.awaitJoined(JOIN_TIMEOUT);
    }
}
