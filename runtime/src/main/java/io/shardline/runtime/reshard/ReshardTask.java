package io.shardline.runtime.reshard;

import io.shardline.runtime.cluster.LeaderTicker;
import io.shardline.runtime.metrics.ReshardMetrics;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.shard.ConsumerSettings;
import io.shardline.runtime.topology.TopologyStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's resharding (docs/operations.md, "Changing the shard count"): every tick, for each stream whose
 * topology is not {@code STABLE}, it rebuilds the {@link Reshard} machine from the topology record, observes every
 * involved shard (routing hash and each group's position, one script per shard, {@link Chunked} at a time), carries
 * out the machine's decisions in order (flips, groups on new shards, group shard sets through the coordinator,
 * barrier releases, retirements, completion) and writes what each group waits for into the record's
 * {@code progress}. A leader that takes over mid-change resumes from the record: every step is idempotent.
 *
 * <p>Ticks every heartbeat interval while every stream is stable, and every quarter of it (the members' cutover
 * poll, {@link ConsumerSettings#cutoverPollMs}) while a change runs. It does not wait for those ticks where it can
 * be told ({@link ReleaseHints}): it publishes the parents each group waits for with their cutovers, the member owning
 * one reports when its acknowledgement reaches the cutover, and that report starts the next pass at once (right
 * after the running one); a release is published as well, and the waiting members poll their barrier at once. A pass
 * that flipped or released shards is followed at once by the next (their parents often drain within it).
 *
 * <p>Runs on the leader only; never blocks: every step is a future on the Vert.x context the timer fires on, one
 * tick at a time, the next scheduled when the last one ended.
 */
public final class ReshardTask {

    private static final Logger LOG = LoggerFactory.getLogger(ReshardTask.class);

    private final TopologyStore topologies;
    private final ReshardStore store;
    private final ReshardShards shards;
    private final GroupShardSets groups;
    private final ReshardMetrics metrics;
    private final ReshardReport report;
    private final ReshardSteps steps;
    private final LeaderTicker ticker;
    private final long intervalMs;
    /** Whether the last pass found a stream changing (then the next tick comes sooner). Leader context. */
    private volatile boolean changing;
    /** Whether the pass in flight found a stream changing so far. Leader context. */
    private boolean sawChange;
    private final ReleaseHints hints;
    /** The watches last published, by stream then group (published again only when they change). Leader context. */
    private final Map<String, Map<String, Map<Integer, String>>> watched = new HashMap<>();
    private volatile io.vertx.core.eventbus.MessageConsumer<?> drained;
    /** The groups a growth's cutover waits for. Leader context. */
    private final TakeUpHold takeUp;

    /** A task ticking every {@code intervalMs} (the heartbeat interval), every quarter of it while a change runs. */
    ReshardTask(Vertx vertx, TopologyStore topologies, ReshardStore store, ReshardShards shards,
                       GroupShardSets groups, BooleanSupplier leader, ReshardMetrics metrics, long intervalMs,
                       ReleaseHints hints, LongSupplier clockMs) {
        this.topologies = Objects.requireNonNull(topologies, "topologies");
        this.store = Objects.requireNonNull(store, "store");
        this.shards = Objects.requireNonNull(shards, "shards");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.intervalMs = intervalMs;
        this.hints = Objects.requireNonNull(hints, "hints");
        this.report = new ReshardReport(metrics);
        this.steps = new ReshardSteps(store, shards, groups, report, hints);
        this.takeUp = new TakeUpHold(clockMs, intervalMs);
        long busyMs = ConsumerSettings.cutoverPollMs(intervalMs);
        this.ticker = new LeaderTicker(vertx, () -> changing ? busyMs : intervalMs, leader, this::lead, () -> {
            changing = false;
            watched.clear();
            takeUp.clear();
            metrics.clear();
        });
    }

    /**
     * The task of a worker: Redis steps over {@code redis}, flips through the routing library, groups through the
     * leader's coordinator.
     */
    public static ReshardTask of(Vertx vertx, io.shardline.runtime.redis.RedisClient redis, String clusterName,
                                 GroupShardSets groups, BooleanSupplier leader, ReshardMetrics metrics,
                                 long intervalMs) {
        return new ReshardTask(vertx, new TopologyStore(redis, clusterName), new ReshardStore(redis),
                new ReshardShards(redis, new io.shardline.producer.routing.ShardRouting(
                        new io.shardline.runtime.redis.ClientRoutingRedis(redis))), groups, leader, metrics, intervalMs,
                new ReleaseHints(vertx, clusterName), System::currentTimeMillis);
    }

    /** Starts ticking; a member's drained report ({@link ReleaseHints}) brings the next pass forward. */
    public void start() {
        ticker.start();
        drained = hints.onDrained(() -> {
            LOG.debug("Resharding: a member acknowledged a parent up to its cutover; the next pass starts now");
            ticker.nudge();
        });
    }

    /** Stops ticking (a step in flight finishes). */
    public void close() {
        ticker.close();
        var consumer = drained;
        if (consumer != null) {
            consumer.unregister();
        }
    }

    /** One tick on the leader: every stream that is not {@code STABLE} one step further. */
    Future<Void> lead() {
        sawChange = false;
        return topologies.names().compose(names -> Chunked.map(names, 1, this::stream)).<Void>mapEmpty().recover(e -> {
            LOG.warn("Resharding: could not read the streams' topologies: {}", e.getMessage());
            return Future.succeededFuture();
        }).onComplete(ar -> changing = sawChange);
    }

    /** Whether the last pass found a stream changing: the task ticks faster then. */
    boolean changing() {
        return changing;
    }

    private Future<Void> stream(String stream) {
        return store.read(stream).compose(found -> {
            if (found.isEmpty()) {
                return Future.succeededFuture();
            }
            Reshard machine = found.get();
            metrics.stream(stream, machine.state().ordinal(), machine.epoch());
            if (machine.state() == ReshardState.STABLE) {
                watched.remove(stream);
                return Future.succeededFuture();
            }
            sawChange = true;
            return step(machine);
        }).recover(e -> {
            LOG.warn("Resharding of stream '{}': this step failed ({}); it is tried again in {} ms", stream,
                    e.getMessage(), intervalMs);
            return Future.succeededFuture();
        });
    }

    private Future<Void> step(Reshard machine) {
        String stream = machine.stream();
        long epoch = machine.epoch();
        Reshard asRead = machine.copy(); // decide() changes the machine: its writes are guarded by what was read
        ReshardStore.Expected read = ReshardStore.Expected.of(asRead);
        // The groups (from the coordinator, which may be busy with a rebalance the last pass caused) and the shards
        // are read at once: a group read in between and missing from the shards only holds its barriers.
        Future<List<GroupShardSets.OnStream>> reading = groups.on(stream);
        Future<List<ReshardShards.Observed>> observing = observe(machine);
        return Future.all(reading, observing).compose(both -> {
            List<GroupShardSets.OnStream> on = reading.result();
            Progress progress = progress(observing.result(), on, takeUp.takingUp(stream, on));
            Map<String, Object> waits = report.report(machine, on, progress);
            watch(stream, report.watches());
            List<Decision> decisions = machine.decide(progress);
            if (decisions.stream().anyMatch(d -> d instanceof Decision.Flip || d instanceof Decision.Release)) {
                // the next barriers can pass as soon as the parents of the shards flipped or released now drain,
                // often at once: the next pass comes right after this one, not a quarter interval later
                ticker.nudge();
            }
            return steps.run(machine, asRead, decisions, on).compose(v -> machine.state() == ReshardState.STABLE
                    ? Future.succeededFuture()
                    : store.write(machine, read.withCompleting(machine.completing()), null, Map.of("progress",
                    ReshardStore.json(waits),
                    "cutover", ReshardStore.json(ReshardReport.cutovers(progress, epoch)))).mapEmpty());
        });
    }

    /** Publishes the watches of {@code stream}'s groups that changed since the last pass. */
    private void watch(String stream, Map<String, Map<Integer, String>> now) {
        Map<String, Map<Integer, String>> before = watched.computeIfAbsent(stream, s -> new HashMap<>());
        now.forEach((group, cutovers) -> {
            Map<Integer, String> last = before.put(group, cutovers);
            if (!cutovers.equals(last == null ? Map.of() : last)) {
                hints.watch(stream, group, cutovers);
            }
        });
    }

    private Future<List<ReshardShards.Observed>> observe(Reshard machine) {
        List<Integer> indexes = IntStream.range(0, machine.maxShards()).boxed().toList();
        return Chunked.map(indexes, Chunked.POOL_CHUNK, i -> shards.observe(machine.stream(), i));
    }

    private static Progress progress(List<ReshardShards.Observed> observed, List<GroupShardSets.OnStream> on,
                                     SortedSet<String> takingUp) {
        TreeMap<String, Integer> managed = new TreeMap<>();
        on.forEach(g -> managed.put(g.group(), g.shards()));
        TreeMap<Integer, Progress.Routing> routing = new TreeMap<>();
        Map<String, Map<Integer, Progress.Position>> positions = new HashMap<>();
        for (int i = 0; i < observed.size(); i++) {
            routing.put(i, observed.get(i).routing());
            int shard = i;
            observed.get(i).positions().forEach((g, pos) -> positions.computeIfAbsent(g, k -> new HashMap<>())
                    .put(shard, pos));
        }
        return new Progress(managed, routing, positions, takingUp);
    }

}
