package io.shardline.chaos;

import io.shardline.producer.routing.RoutingTopology;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RespProbe;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The resharding faults of a run ({@link FaultKind#RESHARD}, {@link FaultKind#RESHARD_ROLLBACK}) through the
 * operator's path (docs/operations.md, "Changing the shard count"): {@code POST /streams/chaos/reshard} with
 * {@code {"shards": M}} on a worker's REST API with the write token, the listener file edited to the count the stream
 * goes to, and for every second change {@code POST /streams/chaos/reshard/rollback} one heartbeat interval later,
 * while it runs. A change is started and left running ({@link #start()}): the runner's next fault hits it. The next
 * change, and the end of the run, first wait until the stream is {@code STABLE} again ({@link #awaitStable()}), which
 * ends the change's {@link FaultEvent} (target {@code 32->45}, or {@code 32->45->32} rolled back). The counts come from
 * the run's seed: between half and one and a half times the initial count, never the current one. Not thread-safe:
 * the runner injects one fault at a time.
 */
final class ReshardFaults {

    /** A change: the barriers drain the backlog of every parent shard; kills and pauses may hit it meanwhile. */
    private static final Duration STABLE_TIMEOUT = Duration.ofSeconds(240);
    /** How long a write may be refused (a leader that is changing answers 503) or a worker not answer. */
    private static final Duration WRITE_TIMEOUT = Duration.ofSeconds(60);

    private final ChaosSettings settings;
    private final WorkerFleet fleet;
    private final RedisServer redis;
    private final LongSupplier clock;
    private final Random random;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int shards;
    private int maxShards;
    private int started;
    private Running running;

    /** The change that runs: what to record when it completes. */
    private record Running(FaultKind kind, String target, long startMs) {
    }

    ReshardFaults(ChaosSettings settings, WorkerFleet fleet, RedisServer redis, LongSupplier clock) {
        this.settings = settings;
        this.fleet = fleet;
        this.redis = redis;
        this.clock = clock;
        this.random = new Random(settings.seed() ^ 0x19L); // a stream of its own: the other faults' plan is unchanged
        this.shards = settings.shards();
        this.maxShards = shards;
    }

    /** How many changes were started. */
    int started() {
        return started;
    }

    /** The largest shard count the stream had: the shard keys the run may have written. */
    int maxShards() {
        return maxShards;
    }

    /**
     * Starts the next change (after {@link #awaitStable()}); every second one is rolled back while it runs.
     *
     * @throws IllegalStateException when no worker accepted the change within {@link #WRITE_TIMEOUT}
     */
    void start() throws InterruptedException, IOException {
        if (running != null) {
            throw new IllegalStateException("a change of the shard count still runs: " + running);
        }
        int from = shards;
        int low = Math.max(2, settings.shards() / 2);
        int to = low + random.nextInt(settings.shards() * 3 / 2 - low);
        to = to >= from ? to + 1 : to; // never the current count
        long startMs = clock.getAsLong();
        write("/reshard", "{\"shards\": " + to + "}", false, "already changing from " + from + " to " + to + " ");
        fleet.writeListener(to);
        started++;
        maxShards = Math.max(maxShards, to);
        shards = to;
        running = new Running(FaultKind.RESHARD, from + "->" + to, startMs);
        if (started % 2 == 0) {
            TimeUnit.MILLISECONDS.sleep(settings.heartbeatIntervalMs()); // the leader's first tick: flips, groups
            if (write("/reshard/rollback", "{}", true, "already rolling back to " + from + " ")) {
                fleet.writeListener(from);
                shards = from;
                running = new Running(FaultKind.RESHARD_ROLLBACK, from + "->" + to + "->" + from, startMs);
            } else {
                System.out.println("chaos: the change " + from + "->" + to + " completed before its rollback");
            }
        }
    }

    /**
     * Waits until the stream is {@code STABLE} with the count of the last change and returns that change's event
     * (empty when none ran).
     *
     * @throws IllegalStateException when it is not within {@link #STABLE_TIMEOUT}
     */
    Optional<FaultEvent> awaitStable() throws InterruptedException {
        if (running == null) {
            return Optional.empty();
        }
        boolean stable = ChaosRun.await(STABLE_TIMEOUT, () -> {
            try (RespProbe probe = RespProbe.connect(redis.host(), redis.port(), 2_000)) {
                List<?> fields = (List<?>) probe.call("HMGET", RoutingTopology.key(ChaosSettings.STREAM), "state",
                        "shards");
                return "STABLE".equals(fields.get(0)) && Integer.toString(shards).equals(fields.get(1));
            }
        });
        if (!stable) {
            throw new IllegalStateException("the change " + running.target() + " of stream '" + ChaosSettings.STREAM
                    + "' did not complete within " + STABLE_TIMEOUT + " (bin/shardline streams describe "
                    + ChaosSettings.STREAM + " shows what it waits for)");
        }
        FaultEvent event = new FaultEvent(running.kind(), running.target(), running.startMs(), clock.getAsLong());
        running = null;
        return Optional.of(event);
    }

    /**
     * POSTs {@code body} to {@code /streams/chaos<path>} on the first live worker that answers, until one answers
     * 202, or a 409 containing {@code done} (an earlier attempt was applied although its answer was lost); a 5xx, or
     * a 409 saying to try again (the leader is changing), is asked again; another 409 returns false when
     * {@code conflictIsAnswer} (a rollback after the change completed), else is a failure.
     */
    private boolean write(String path, String body, boolean conflictIsAnswer, String done) throws InterruptedException {
        long deadline = System.nanoTime() + WRITE_TIMEOUT.toNanos();
        String last = "no live worker";
        while (System.nanoTime() < deadline) {
            for (WorkerProcess w : fleet.workers()) {
                if (!w.alive()) {
                    continue;
                }
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + fleet.restPort(w.id())
                                + "/streams/" + ChaosSettings.STREAM + path))
                        .timeout(Duration.ofSeconds(10))
                        .header("Authorization", "Bearer " + ChaosSettings.REST_TOKEN)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                try {
                    HttpResponse<String> reply = http.send(request, HttpResponse.BodyHandlers.ofString());
                    if (reply.statusCode() == 202) {
                        return true;
                    }
                    if (reply.statusCode() == 409 && reply.body().contains(done)) {
                        return true; // an earlier attempt that timed out on its way to the leader was applied
                    }
                    boolean leaderChanging = reply.statusCode() == 409 && reply.body().contains("try again");
                    if (reply.statusCode() == 409 && conflictIsAnswer && !leaderChanging) {
                        return false;
                    }
                    last = w.id() + " answered " + reply.statusCode() + ": " + reply.body();
                    if (reply.statusCode() < 500 && !leaderChanging) {
                        throw new IllegalStateException("POST /streams/" + ChaosSettings.STREAM + path + " " + body
                                + " refused: " + last);
                    }
                } catch (IOException e) {
                    last = w.id() + ": " + e;
                }
            }
            TimeUnit.MILLISECONDS.sleep(500); // a leader change in progress: ask again
        }
        throw new IllegalStateException("POST /streams/" + ChaosSettings.STREAM + path + " was not accepted within "
                + WRITE_TIMEOUT + "; last: " + last);
    }
}
