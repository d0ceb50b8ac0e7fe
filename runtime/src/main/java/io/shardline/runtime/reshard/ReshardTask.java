package io.shardline.runtime.reshard;

import io.shardline.runtime.metrics.ReshardMetrics;
import io.shardline.runtime.redis.Chunked;
import io.shardline.runtime.topology.TopologyStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
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
 * <p>Runs on the leader only; never blocks: every step is a future on the Vert.x context the timer fires on, one
 * tick at a time, the next scheduled when the last one ended.
 */
public final class ReshardTask {

    private static final Logger LOG = LoggerFactory.getLogger(ReshardTask.class);
    private static final int WAITS_SHOWN = 8;

    private final Vertx vertx;
    private final TopologyStore topologies;
    private final ReshardStore store;
    private final ReshardShards shards;
    private final GroupShardSets groups;
    private final BooleanSupplier leader;
    private final ReshardMetrics metrics;
    private final long intervalMs;
    private final Map<String, String> reported = new HashMap<>();
    private volatile boolean closed;
    private volatile long timer = -1;

    /** A task ticking every {@code intervalMs} (the heartbeat interval). */
    ReshardTask(Vertx vertx, TopologyStore topologies, ReshardStore store, ReshardShards shards,
                       GroupShardSets groups, BooleanSupplier leader, ReshardMetrics metrics, long intervalMs) {
        this.vertx = Objects.requireNonNull(vertx, "vertx");
        this.topologies = Objects.requireNonNull(topologies, "topologies");
        this.store = Objects.requireNonNull(store, "store");
        this.shards = Objects.requireNonNull(shards, "shards");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.leader = Objects.requireNonNull(leader, "leader");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.intervalMs = intervalMs;
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
                        new io.shardline.runtime.redis.ClientRoutingRedis(redis))), groups, leader, metrics, intervalMs);
    }

    /** Starts ticking. */
    public void start() {
        schedule();
    }

    /** Stops ticking (a step in flight finishes). */
    public void close() {
        closed = true;
        long id = timer;
        if (id >= 0) {
            vertx.cancelTimer(id);
        }
    }

    private void schedule() {
        if (!closed) {
            timer = vertx.setTimer(intervalMs, id -> tick());
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        if (!leader.getAsBoolean()) {
            metrics.clear();
            schedule();
            return;
        }
        topologies.names().compose(names -> Chunked.map(names, 1, this::stream)).onComplete(ar -> {
            if (ar.failed()) {
                LOG.warn("Resharding: could not read the streams' topologies: {}", ar.cause().getMessage());
            }
            schedule();
        });
    }

    private Future<Void> stream(String stream) {
        return store.read(stream).compose(found -> {
            if (found.isEmpty()) {
                return Future.succeededFuture();
            }
            Reshard machine = found.get();
            metrics.stream(stream, machine.state().ordinal(), machine.epoch());
            return machine.state() == ReshardState.STABLE ? Future.succeededFuture() : step(machine);
        }).recover(e -> {
            LOG.warn("Resharding of stream '{}': this step failed ({}); it is tried again in {} ms", stream,
                    e.getMessage(), intervalMs);
            return Future.succeededFuture();
        });
    }

    private Future<Void> step(Reshard machine) {
        String stream = machine.stream();
        long epoch = machine.epoch();
        return groups.on(stream).compose(on -> observe(machine, on).compose(progress -> {
            Map<String, Object> report = report(machine, on, progress);
            List<Decision> decisions = machine.decide(progress);
            return run(machine, epoch, decisions, on).compose(v -> machine.state() == ReshardState.STABLE
                    ? Future.succeededFuture()
                    : store.write(machine, epoch, null, Map.of("progress", ReshardStore.json(report),
                    "cutover", ReshardStore.json(cutovers(progress, epoch)))).mapEmpty());
        }));
    }

    private Future<Progress> observe(Reshard machine, List<GroupShardSets.OnStream> on) {
        List<Integer> indexes = IntStream.range(0, machine.maxShards()).boxed().toList();
        return Chunked.map(indexes, Chunked.POOL_CHUNK, i -> shards.observe(machine.stream(), i)).map(observed -> {
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
            return new Progress(managed, routing, positions);
        });
    }

    /** Carries {@code decisions} out in order; runs of independent per-shard steps go a chunk at a time. */
    private Future<Void> run(Reshard machine, long epoch, List<Decision> decisions, List<GroupShardSets.OnStream> on) {
        String stream = machine.stream();
        Future<Void> chain = Future.succeededFuture();
        List<Decision> batch = new ArrayList<>();
        for (Decision d : decisions) {
            if (d instanceof Decision.Flip || d instanceof Decision.CreateGroup || d instanceof Decision.Release
                    || d instanceof Decision.Retire) {
                batch.add(d);
                continue;
            }
            List<Decision> parallel = List.copyOf(batch);
            batch.clear();
            chain = chain.compose(v -> perShard(stream, epoch, parallel, on)).compose(v -> single(machine, epoch, d));
        }
        List<Decision> rest = List.copyOf(batch);
        return chain.compose(v -> perShard(stream, epoch, rest, on));
    }

    private Future<Void> perShard(String stream, long epoch, List<Decision> batch, List<GroupShardSets.OnStream> on) {
        if (batch.isEmpty()) {
            return Future.succeededFuture();
        }
        List<String> names = on.stream().map(GroupShardSets.OnStream::group).toList();
        long flips = batch.stream().filter(d -> d instanceof Decision.Flip).count();
        long releases = batch.stream().filter(d -> d instanceof Decision.Release).count();
        return Chunked.map(batch, Chunked.POOL_CHUNK, d -> {
            if (d instanceof Decision.Flip f) {
                return shards.flip(stream, f.shard(), f.epoch());
            } else if (d instanceof Decision.CreateGroup c) {
                return shards.createGroup(stream, c.shard(), c.group());
            } else if (d instanceof Decision.Release r) {
                return shards.release(stream, r.shard(), r.group(), r.epoch());
            }
            Decision.Retire r = (Decision.Retire) d;
            LOG.info("Resharding of stream '{}': shard {} retired (every group drained it; its keys are removed)",
                    stream, r.shard());
            return shards.retire(stream, r.shard(), epoch, names);
        }).map(done -> {
            if (flips > 0 || releases > 0) {
                LOG.info("Resharding of stream '{}' (routing epoch {}): {} shard(s) flipped, {} barrier(s) released",
                        stream, epoch, flips, releases);
            }
            return null;
        });
    }

    private Future<Void> single(Reshard machine, long epoch, Decision d) {
        String stream = machine.stream();
        if (d instanceof Decision.Persist) {
            return store.write(machine, epoch, "every group passed the cutover of epoch " + epoch + "; completing",
                    Map.of()).compose(written -> written == 1 ? Future.<Void>succeededFuture()
                    : Future.failedFuture("the topology changed meanwhile (an operator's change); deciding again"));
        }
        if (d instanceof Decision.Resize r) {
            LOG.info("Resharding of stream '{}': group '{}' manages {} shard(s) of it now", stream, r.group(),
                    r.shards());
            return groups.resize(r.group(), stream, r.shards(), r.rollback());
        }
        Decision.Complete c = (Decision.Complete) d;
        List<Integer> indexes = IntStream.range(0, c.shards()).boxed().toList();
        return Chunked.map(indexes, Chunked.POOL_CHUNK, i -> shards.finish(stream, i))
                .compose(v -> store.write(machine, epoch, "completed: " + c.shards() + " shards", Map.of()))
                .map(written -> {
                    LOG.info("Resharding of stream '{}' completed: {} shards under routing epoch {}", stream,
                            c.shards(), c.epoch());
                    metrics.stream(stream, ReshardState.STABLE.ordinal(), c.epoch());
                    reported.remove(stream);
                    return null;
                });
    }

    /** Per group: how many shards passed the last barrier, what the others wait for, which left-out shards hold. */
    private Map<String, Object> report(Reshard machine, List<GroupShardSets.OnStream> on, Progress progress) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> perGroup = new TreeMap<>();
        List<String> blocked = new ArrayList<>();
        int waitingShards = 0;
        for (GroupShardSets.OnStream g : on) {
            int passed = 0;
            List<Map<String, Object>> waits = new ArrayList<>();
            for (int j = 0; j < machine.maxShards(); j++) {
                var wait = machine.waits(progress, g.group(), j);
                if (wait.isEmpty()) {
                    passed += j < machine.shards() ? 1 : 0;
                } else if (!wait.get().getValue().isEmpty() || progress.routing(j).epoch() < wait.get().getKey()) {
                    waitingShards++;
                    if (waits.size() < WAITS_SHOWN) {
                        waits.add(Map.of("shard", j, "epoch", wait.get().getKey(), "parents", wait.get().getValue()));
                    }
                }
            }
            List<Integer> leftOut = machine.undrained(progress, g.group());
            perGroup.put(g.group(), Map.of("passed", passed, "of", machine.shards(), "members", g.members(),
                    "waiting", waits, "retiring_not_drained", leftOut));
            if (g.members() == 0 && (passed < machine.shards() || !leftOut.isEmpty())) {
                blocked.add("group '" + g.group() + "' has no live member: nobody reads its shards, so the change "
                        + "cannot pass its barriers; start its listener, or roll the change back");
            }
        }
        out.put("groups", perGroup);
        out.put("blocked", blocked);
        metrics.waiting(machine.stream(), waitingShards);
        String summary = String.join("; ", blocked);
        if (!summary.isEmpty() && !summary.equals(reported.put(machine.stream(), summary))) {
            LOG.warn("Resharding of stream '{}' cannot progress: {}", machine.stream(), summary);
        }
        return out;
    }

    private static Map<String, String> cutovers(Progress progress, long epoch) {
        Map<String, String> out = new TreeMap<>();
        progress.routing().forEach((i, r) -> {
            String cut = r.cutovers().get(epoch);
            if (cut != null) {
                out.put(Integer.toString(i), cut);
            }
        });
        return out;
    }
}
