package io.shardline.runtime.reshard;

import io.shardline.runtime.redis.Chunked;
import io.vertx.core.Future;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the {@link Decision}s of one tick of {@link ReshardTask} in order: flips, groups on new shards, barrier
 * releases and retirements on the shards ({@link ReshardShards}, a chunk at a time), group shard sets through the
 * coordinator ({@link GroupShardSets}), the plan and the completion in the topology record ({@link ReshardStore}); after
 * releases and the completion, a hint to the waiting members ({@link ReleaseHints}). Every step is idempotent. Never blocks; used by one tick at a time.
 */
final class ReshardSteps {

    private static final Logger LOG = LoggerFactory.getLogger(ReshardTask.class);

    private final ReshardStore store;
    private final ReshardShards shards;
    private final GroupShardSets groups;
    private final ReshardReport report;
    private final ReleaseHints hints;

    ReshardSteps(ReshardStore store, ReshardShards shards, GroupShardSets groups, ReshardReport report,
                 ReleaseHints hints) {
        this.hints = Objects.requireNonNull(hints, "hints");
        this.store = Objects.requireNonNull(store, "store");
        this.shards = Objects.requireNonNull(shards, "shards");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.report = Objects.requireNonNull(report, "report");
    }

    /**
     * Carries {@code decisions} out in order; runs of per-shard steps of one kind go a chunk at a time, and a kind
     * starts when the one before it ended: releases before flips (a shard released before its flip never stops a
     * group at its cutover), flips before groups are created on new shards (a shard a later layout has again is past
     * its tombstone then).
     */
    Future<Void> run(Reshard machine, Reshard asRead, List<Decision> decisions, List<GroupShardSets.OnStream> on) {
        String stream = machine.stream();
        long epoch = asRead.epoch();
        Future<Void> chain = Future.succeededFuture();
        List<Decision> batch = new ArrayList<>();
        for (Decision d : decisions) {
            boolean perShard = d instanceof Decision.Flip || d instanceof Decision.CreateGroup
                    || d instanceof Decision.Release || d instanceof Decision.Retire;
            if (!batch.isEmpty() && (!perShard || batch.get(0).getClass() != d.getClass())) {
                List<Decision> parallel = List.copyOf(batch);
                batch.clear();
                chain = chain.compose(v -> perShard(stream, epoch, parallel, on));
            }
            if (perShard) {
                batch.add(d);
            } else {
                chain = chain.compose(v -> single(machine, asRead, d, on));
            }
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
            if (releases > 0) {
                // the waiting members poll now rather than at their next poll
                hints.publish(stream, batch.stream().filter(d -> d instanceof Decision.Release)
                        .map(d -> ((Decision.Release) d).group()).collect(Collectors.toCollection(TreeSet::new)));
            }
            if (flips > 0 || releases > 0) {
                LOG.info("Resharding of stream '{}' (routing epoch {}): {} shard(s) flipped, {} barrier(s) released",
                        stream, epoch, flips, releases);
            }
            return null;
        });
    }

    private Future<Void> single(Reshard machine, Reshard asRead, Decision d, List<GroupShardSets.OnStream> on) {
        String stream = machine.stream();
        long epoch = asRead.epoch();
        ReshardStore.Expected read = ReshardStore.Expected.of(asRead);
        if (d instanceof Decision.Persist) {
            // The change as read with step = COMPLETING (machine is STABLE already: decide() ran to the end). From
            // here no rollback or change is accepted, and a leader that takes over retires and completes it.
            Reshard completing = Reshard.restore(stream, asRead.state(), asRead.layouts(), true);
            return store.write(completing, read.withCompleting(false), "every group passed the cutover of epoch " + epoch
                    + "; completing", Map.of()).compose(written -> written == 1 ? Future.<Void>succeededFuture()
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
                .compose(v -> store.write(machine, read.withCompleting(true), "completed: " + c.shards() + " shards",
                        Map.of()))
                .map(written -> {
                    if (written != 1) {
                        // another leader's step completed it first (its write changed the state): nothing to report
                        throw new IllegalStateException("the topology changed meanwhile (completed by another "
                                + "leader's step); deciding again");
                    }
                    LOG.info("Resharding of stream '{}' completed: {} shards under routing epoch {}", stream,
                            c.shards(), c.epoch());
                    report.completed(stream, c.epoch());
                    // the finished epochs' cutovers are gone: a member still waiting at one reads on at its next poll
                    hints.publish(stream, on.stream().map(GroupShardSets.OnStream::group)
                            .collect(Collectors.toCollection(TreeSet::new)));
                    return null;
                });
    }
}
