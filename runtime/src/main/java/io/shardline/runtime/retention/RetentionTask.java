package io.shardline.runtime.retention;

import io.shardline.api.handler.ShardId;
import io.shardline.runtime.cluster.LeaderTicker;
import io.shardline.runtime.metrics.RetentionMetrics;
import io.shardline.runtime.topology.StreamTopology;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's retention (docs/operations.md, "Retention"): a pass goes through every shard of every stream
 * some listener declares a retention for, trimming each with {@link RetentionTrim}, paced by
 * {@link RetentionSettings} (a tick every interval, a bounded number of shards per tick, one script in flight,
 * the next tick scheduled only when the previous finished), so a cluster of 100,000 shards never floods the Redis
 * client. At the end of a pass it records per stream the metrics of {@link RetentionMetrics} and warns, once per
 * change, when groups hold a stream back (naming the groups and how far), and says when they no longer do.
 * Streams whose listeners declare different retentions are not trimmed; the conflict is logged.
 *
 * <p>Runs on the leader only: a worker that does not lead does nothing and exports no retention metrics. Never
 * blocks: every step is a future on the Vert.x context the timers fire on; state is touched by one chain at a time.
 */
public final class RetentionTask {

    private static final Logger LOG = LoggerFactory.getLogger(RetentionTask.class);

    private final LeaderTicker ticker;
    private final RetentionTrim trim;
    private final Supplier<Future<Map<String, Map<String, String>>>> listeners;
    private final Function<List<String>, Future<Map<String, StreamTopology>>> topologies;
    private final RetentionMetrics metrics;
    private final LongSupplier wallClockMs;
    private final RetentionSettings settings;
    private final Deque<Turn> queue = new ArrayDeque<>();
    private final Map<String, Held> pass = new TreeMap<>();
    private final Map<String, Set<String>> reportedHolders = new TreeMap<>();
    private final Set<String> reportedConflicts = new HashSet<>();
    private boolean leading;

    private record Turn(SharedStreams.Plan plan, ShardId shard) {
    }

    /** What held one stream back during a pass. */
    private static final class Held {
        final int shards;
        final Set<String> groups = new TreeSet<>();
        long heldShards;
        long entries;
        long millis;
        ShardId worst;
        String error;

        Held(int shards) {
            this.shards = shards;
        }
    }

    /**
     * A task.
     *
     * @param listeners every listener's raw configuration by name (files and REST)
     * @param topologies the topologies of the named streams that have one ({@code TopologyStore#readAll}): a pass
     *     trims every shard a stream has now, also those a change of the shard count added after the listeners'
     *     definitions were written
     * @param leader whether this worker leads now
     * @param wallClockMs the wall clock entry ids are made of
     */
    public RetentionTask(Vertx vertx, RetentionTrim trim, Supplier<Future<Map<String, Map<String, String>>>> listeners,
                         Function<List<String>, Future<Map<String, StreamTopology>>> topologies, BooleanSupplier leader, RetentionMetrics metrics, LongSupplier wallClockMs,
                         RetentionSettings settings) {
        this.trim = Objects.requireNonNull(trim, "trim");
        this.listeners = Objects.requireNonNull(listeners, "listeners");
        this.topologies = Objects.requireNonNull(topologies, "topologies");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.wallClockMs = Objects.requireNonNull(wallClockMs, "wallClockMs");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.ticker = new LeaderTicker(vertx, settings.intervalMs(), leader, this::lead, this::follow);
    }

    /** Starts ticking. */
    public void start() {
        ticker.start();
    }

    /** Stops ticking (a trim in flight finishes). */
    public void close() {
        ticker.close();
    }

    /** A tick on a worker that does not lead: what it held as leader is dropped. */
    private void follow() {
        if (leading) {
            leading = false;
            queue.clear();
            pass.clear();
            reportedHolders.clear();
            metrics.clear();
        }
    }

    /** A tick on the leader: a new pass when the last one is over, then a bounded number of trims. */
    private Future<Void> lead() {
        leading = true;
        Future<Void> ready = queue.isEmpty() ? startPass() : Future.succeededFuture();
        return ready.compose(v -> trimNext(settings.shardsPerTick())).recover(e -> {
            LOG.warn("Retention: could not read the listeners' retention: {}", e.getMessage());
            return Future.succeededFuture();
        });
    }

    private Future<Void> startPass() {
        return listeners.get().compose(configs -> {
            SharedStreams.Plans plans = SharedStreams.plans(configs);
            for (String conflict : plans.conflicts()) {
                if (reportedConflicts.add(conflict)) {
                    LOG.warn("Retention: {}", conflict);
                }
            }
            List<String> streams = plans.plans().stream().map(SharedStreams.Plan::stream).toList();
            return topologies.apply(streams).map(current -> {
                for (SharedStreams.Plan plan : plans.plans()) {
                    StreamTopology topology = current.get(plan.stream());
                    int shards = topology != null ? topology.span() : plan.shards();
                    pass.put(plan.stream(), new Held(shards));
                    for (int i = 0; i < shards; i++) {
                        queue.add(new Turn(plan, new ShardId(plan.stream(), i)));
                    }
                }
                return null;
            });
        });
    }

    private Future<Void> trimNext(int left) {
        Turn turn = queue.poll();
        if (turn == null || ticker.closed()) {
            return Future.succeededFuture();
        }
        String stream = turn.plan().stream();
        return trim.trim(turn.shard(), turn.plan().policy(), wallClockMs.getAsLong(), settings.trimBudget())
                .map(outcome -> {
                    record(stream, outcome);
                    return (Void) null;
                })
                .recover(e -> {
                    Held held = pass.get(stream);
                    if (held != null && held.error == null) {
                        held.error = turn.shard().key() + ": " + e.getMessage();
                    }
                    return Future.succeededFuture();
                })
                .compose(v -> {
                    if (queue.isEmpty() || queue.peek().shard().index() == 0) {
                        finishStream(stream);
                    }
                    return left > 1 ? trimNext(left - 1) : Future.succeededFuture();
                });
    }

    private void record(String stream, RetentionTrim.Outcome outcome) {
        metrics.trimmed(stream, outcome.trimmed());
        Held held = pass.get(stream);
        if (held == null || !outcome.heldBack()) {
            return;
        }
        held.heldShards++;
        held.entries += outcome.heldEntries();
        held.groups.add(outcome.holder());
        if (outcome.heldBackMs() >= held.millis) {
            held.millis = outcome.heldBackMs();
            held.worst = outcome.shard();
        }
    }

    /** The pass over {@code stream} is over: metrics, and a log line when what holds it back changed. */
    private void finishStream(String stream) {
        Held held = pass.remove(stream);
        if (held == null) {
            return;
        }
        metrics.held(stream, held.heldShards, held.entries, held.millis);
        if (held.error != null) {
            LOG.warn("Retention: could not trim every shard of stream '{}' (first error {}); it is tried again on "
                    + "the next pass", stream, held.error);
        }
        Set<String> before = reportedHolders.getOrDefault(stream, Set.of());
        if (held.heldShards == 0) {
            if (!before.isEmpty()) {
                LOG.info("Retention of stream '{}' is no longer held back (was by group(s) {})", stream, before);
                reportedHolders.remove(stream);
            }
            return;
        }
        if (!before.equals(held.groups)) {
            LOG.warn("Retention of stream '{}' is held back on {} of {} shard(s) by group(s) {}: {} entries "
                            + "retention would trim are kept because those groups have not been delivered or have not "
                            + "acknowledged them, up to {} s of entry time behind the retention bound (on {}). Resume "
                            + "or speed up the group, or delete it if it is gone (bin/shardline groups delete G)",
                    stream, held.heldShards, held.shards, held.groups, held.entries, held.millis / 1_000,
                    held.worst.key());
            reportedHolders.put(stream, Set.copyOf(held.groups));
        }
    }

}
