package io.shardline.runtime.reshard;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.handler.ShardId;
import io.shardline.producer.routing.ShardRouting;
import io.shardline.api.config.Placeholders;
import io.shardline.runtime.control.ListenerLoader;
import io.shardline.runtime.listener.Listener;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.metrics.ReshardMetrics;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.redis.ClientRoutingRedis;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.shard.MemberShards;
import io.shardline.runtime.shard.RuntimeShardRedis;
import io.shardline.runtime.shard.ShardCommands;
import io.shardline.runtime.testing.Await;
import io.shardline.runtime.topology.TopologyStore;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The leader's resharding task alone over a real redis-server, without workers: the test is the group (it reads and
 * acknowledges the shards itself, {@code XREADGROUP} and {@code XACK}) and the coordinator (a {@link GroupShardSets}
 * that records the shard set), and drives the task one tick at a time ({@link ReshardTask#lead()}), checking the
 * Redis state after each: flips, groups on the new shards, the barrier held until the parents are drained, then
 * completion; a scale-in's retirement; a rollback.
 */
@RedisTest
class ReshardTaskTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String GROUP = "g";

    private final String stream = "rt-" + UUID.randomUUID();
    private Vertx vertx;
    private RedisClient redis;
    private ReshardStore store;
    private ReshardTask task;
    /** The group's managed shard count of the stream, as the coordinator would hold it. */
    private int managed = 4;
    /** What an operator paused of the group. */
    private List<GroupShardSets.Paused> paused = List.of();
    /** How many of its shards the group's members own, or null: every one. */
    private Integer owned;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(19)), WAIT);
        TopologyStore topologies = new TopologyStore(redis, "rt-" + UUID.randomUUID());
        store = new ReshardStore(redis);
        GroupShardSets groups = new GroupShardSets() {
            @Override
            public Future<List<OnStream>> on(String s) {
                return Future.succeededFuture(s.equals(stream) ? List.of(new OnStream(GROUP, managed, 1, paused,
                        owned == null ? managed : owned)) : List.of());
            }

            @Override
            public Future<Void> resize(String group, String s, int shards, boolean rollback) {
                managed = shards;
                return Future.succeededFuture();
            }
        };
        task = new ReshardTask(vertx, topologies, store, new ReshardShards(redis, new ShardRouting(
                new ClientRoutingRedis(redis))), groups, () -> true, new ReshardMetrics(new MetricRegistry()), 1_000,
                new ReleaseHints(vertx, "rt"), System::currentTimeMillis);
        result(topologies.create(stream, 4, "test"), WAIT);
        for (int i = 0; i < 4; i++) {
            send(Request.cmd(Command.XGROUP).arg("CREATE").arg(key(i)).arg(GROUP).arg("0").arg("MKSTREAM"));
            for (int n = 0; n < 3; n++) {
                send(Request.cmd(Command.XADD).arg(key(i)).arg("*").arg("n").arg(n));
            }
        }
    }

    @AfterEach
    void stop() {
        task.close();
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    @Test
    void aGrowthFlipsCreatesHoldsTheBarrierUntilTheParentsAreDrainedThenCompletes() {
        change(r -> r.start(6));

        tick();
        assertThat(topology()).containsEntry("state", "RESHARDING").containsEntry("routing_epoch", "2");
        assertThat(groups(5)).as("the group on a new shard").contains(GROUP);
        assertThat(managed).as("the group manages both layouts' shards").isEqualTo(6);
        for (int i = 0; i < 4; i++) {
            assertThat(routing(i)).as("shard %d not flipped before the group grew", i).doesNotContainKey("epoch");
        }

        tick();
        for (int i = 0; i < 6; i++) {
            assertThat(routing(i)).as("shard %d flipped", i).containsEntry("epoch", "2").containsKey("cutover:2");
        }

        tick();
        assertThat(routing(4)).as("shard 4's parents 0 and 2 hold entries the group has not read")
                .doesNotContainKey("released:" + GROUP);
        assertThat(topology()).containsEntry("state", "RESHARDING");

        drain(4);
        tick();
        assertThat(topology()).as("released and completed").containsEntry("state", "STABLE")
                .containsEntry("shards", "6").containsEntry("routing_epoch", "2");
        for (int i = 0; i < 6; i++) {
            assertThat(routing(i)).as("shard %d keeps only its epoch", i).containsOnlyKeys("epoch");
        }
    }

    @Test
    void theOldShardsAreFlippedOnlyOnceTheGroupsMembersOwnTheNewShards() {
        owned = 4;
        change(r -> r.start(6));
        tick();
        tick();
        assertThat(managed).isEqualTo(6);
        assertThat(new JsonObject(topology().get("progress")).getJsonObject("groups").getJsonObject(GROUP)
                .getInteger("owned")).as("the progress shows the take-up").isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            assertThat(routing(i)).as("shard %d not flipped while shards 4 and 5 have no owner", i)
                    .doesNotContainKey("epoch");
        }
        assertThat(routing(4)).as("a new shard, written by nobody in the old layout").containsEntry("epoch", "2");

        owned = 6;
        tick();
        for (int i = 0; i < 4; i++) {
            assertThat(routing(i)).as("shard %d flipped", i).containsEntry("epoch", "2");
        }
    }

    @Test
    void aShardWhoseOnlyParentIsItselfIsNeverStoppedAtItsCutoverWhileANewShardWaitsForItsParent() {
        List<JsonObject> hints = new java.util.concurrent.CopyOnWriteArrayList<>();
        vertx.eventBus().<JsonObject>consumer(ReleaseHints.address("rt"), m -> hints.add(m.body()));
        change(r -> r.start(8)); // 4 divides 8: shard i < 4 has only itself as parent, shard i + 4 has i
        tick();
        tick(); // the group grew: the old shards are flipped
        assertThat(task.changing()).as("the task ticks faster while a change runs").isTrue();
        Await.until(() -> !hints.isEmpty(), WAIT, 10, "the release hint to the members");
        tick(); // observes the flip: the watch
        Await.until(() -> hints.size() >= 2, WAIT, 10, "the watch hint to the members");
        assertThat(hints).as("shards 0-3 released; shards 4-7 wait for 0-3 drained to their cutovers").containsExactly(
                new JsonObject().put("kind", "released").put("stream", stream).put("groups",
                        new io.vertx.core.json.JsonArray().add(GROUP)),
                new JsonObject().put("kind", "watch").put("stream", stream).put("group", GROUP).put("cutovers",
                        new JsonObject().put("0", routing(0).get("cutover:2")).put("1", routing(1).get("cutover:2"))
                                .put("2", routing(2).get("cutover:2")).put("3", routing(3).get("cutover:2"))));
        for (int i = 0; i < 4; i++) {
            assertThat(routing(i)).as("shard %d released at its flip, its 3 entries unread", i)
                    .containsEntry("released:" + GROUP, "2").containsEntry("epoch", "2");
        }
        assertThat(routing(4)).doesNotContainKey("released:" + GROUP);
        String after = send(Request.cmd(Command.XADD).arg(key(0)).arg("*").arg("n").arg("after")).toString();

        ShardCommands commands = new ShardCommands(new RuntimeShardRedis(redis));
        result(commands.loadLibrary(), WAIT);
        ShardCommands.ReadResult old = read(commands, 0);
        assertThat(old.waiting()).as("the group reads past the cutover of shard 0 without stopping").isFalse();
        assertThat(old.records()).hasSize(4);
        assertThat(old.records().get(3).entryId()).isEqualTo(after);
        ShardCommands.ReadResult moved = read(commands, 4);
        assertThat(moved.waitingEpoch()).as("shard 4 waits for shard 0's drain").isEqualTo(2);

        drain(4);
        tickUntilStable();
        tick();
        assertThat(task.changing()).as("back to the heartbeat interval once stable").isFalse();
    }

    @Test
    void aPausedListenerAndAPausedShardTheChangeWaitsForAreShownAsBlockedButNotAPausedShardItDoesNotWaitFor() {
        paused = List.of(new GroupShardSets.Paused("x", GroupShardSets.Paused.WHOLE_LISTENER),
                new GroupShardSets.Paused("x", 0), new GroupShardSets.Paused("x", 3));
        change(r -> r.start(8)); // shard i + 4 waits for shard i
        drain(3);
        tick();
        tick();
        tick();

        JsonObject progress = new JsonObject(topology().get("progress"));
        assertThat(progress.getJsonArray("blocked").getList()).as(progress.encode()).containsExactly(
                "group 'g' is paused (listener 'x'): its members keep their shards but read nothing, so the change "
                        + "cannot pass its barriers; resume it (bin/shardline listeners resume x) or roll the change "
                        + "back (bin/shardline streams rollback " + stream + ")",
                "shard " + stream + ":3 of group 'g' is paused (listener 'x'): the change waits for the group to drain "
                        + "it to its cutover; resume it (PUT /listeners/x/shards/" + stream + "/3/resume) or roll the "
                        + "change back (bin/shardline streams rollback " + stream + ")");
    }

    @Test
    void aListenerStartedWithTheCountBeforeACompletedScaleInCreatesNoRetiredKey() throws Exception {
        change(r -> r.start(2));
        drain(4);
        tickUntilStable();
        // The listener passed its topology check while the change ran (every count of a running change is
        // accepted) and creates its groups only now, after the change completed: the race of a start with the old
        // count.
        Path dir = Files.createTempDirectory("reshard-listener");
        Files.writeString(dir.resolve("late.properties"), "handler = configured\nstreams = " + stream
                + ":4\ngroup = late\nconcurrency = 1\nhandler.config.prefix = late-\n");
        try (Plugins plugins = Plugins.load(List.of(), getClass().getClassLoader())) {
            ListenerDefinition def = ListenerLoader.loadAll(dir, plugins, Placeholders.system()).throwIfInvalid()
                    .listeners().get(0);
            Listener listener = result(Listener.start(vertx, new RuntimeShardRedis(redis), def, "w1",
                    new MetricRegistry(), new MemberShards.Events() { }, System::currentTimeMillis), WAIT);
            for (int i = 2; i < 4; i++) {
                assertThat(exists(i)).as("retired shard %d not created again", i).isFalse();
                assertThat(routing(i)).as("shard %d still a tombstone", i).containsEntry("retired", "2");
            }
            assertThat(groups(1)).as("a live shard gets the group").contains("late");
            result(listener.close(), WAIT);
        }
    }

    @Test
    void aScaleInRetiresTheLeftOutShardsOnceDrainedAndNothingCreatesThemAgain() {
        change(r -> r.start(2));
        tick();
        assertThat(topology()).containsEntry("state", "RESHARDING");
        assertThat(exists(3)).as("not retired while the group has entries there").isTrue();

        drain(4);
        tickUntilStable();
        assertThat(topology()).containsEntry("shards", "2");
        assertThat(managed).isEqualTo(2);
        for (int i = 2; i < 4; i++) {
            assertThat(exists(i)).as("shard %d retired", i).isFalse();
            assertThat(routing(i)).as("shard %d's tombstone", i).containsEntry("retired", routing(i).get("epoch"));
        }

        // A member still holding shard 3 that finds its group gone creates no key there.
        ShardCommands commands = new ShardCommands(new RuntimeShardRedis(redis));
        assertThat(result(commands.ensureGroup(new ShardId(stream, 3), GROUP, "0"), WAIT)).isFalse();
        assertThat(exists(3)).as("a retired shard is not created again").isFalse();
        assertThat(result(commands.ensureGroup(new ShardId(stream, 1), "other", "0"), WAIT)).isTrue();
        assertThat(groups(1)).as("a live shard gets its group").contains("other");

        // Growing again flips the shard past its tombstone: it is live, and gets its group.
        change(r -> r.start(4));
        tick();
        assertThat(groups(3)).as("shard 3 of the new layout").contains(GROUP);
    }

    @Test
    void aRollbackReturnsToTheCountBeforeAndRetiresWhatTheChangeCreated() {
        change(r -> r.start(6));
        tick();
        assertThat(exists(5)).as("created by the change").isTrue();

        change(Reshard::rollback);
        assertThat(topology()).containsEntry("state", "ROLLING_BACK").containsEntry("routing_epoch", "3");
        tick();
        for (int i = 0; i < 6; i++) {
            assertThat(routing(i)).as("shard %d flipped to the rollback's epoch", i).containsEntry("epoch", "3");
        }

        drain(6);
        tickUntilStable();
        assertThat(topology()).containsEntry("shards", "4").containsEntry("routing_epoch", "3");
        assertThat(managed).isEqualTo(4);
        assertThat(exists(4)).as("the change's new shards retired").isFalse();
        assertThat(exists(5)).isFalse();
        assertThat(exists(3)).as("the old layout's shards keep their records").isTrue();
    }

    @Test
    void aRollbackReadBeforeTheChangeBecameCompletingIsNotWrittenAfterIt() {
        // An operator's rollback reads the running change; before it is written, the leader decides the change
        // completes (every group drained the left-out shards 2 and 3) and persists that under the same epoch.
        PendingRollback rollback = rollbackReadWhileShrinkingTo2();
        Reshard running = result(store.read(stream), WAIT).orElseThrow();
        Reshard completing = Reshard.restore(stream, running.state(), running.layouts(), true);
        assertThat(result(store.write(completing, rollback.read(), "completing", Map.of()), WAIT)).isEqualTo(1);

        assertThat(rollback.write()).as("the rollback read before the change was completing").isEqualTo(0);
        assertThat(topology()).containsEntry("state", "RESHARDING").containsEntry("step", ReshardStore.COMPLETING)
                .containsEntry("routing_epoch", "2");
        tickUntilStable();
        assertThat(topology()).containsEntry("shards", "2");
        assertThat(exists(3)).as("retired by the change that completed").isFalse();
    }

    @Test
    void aRollbackReadBeforeTheChangeCompletedIsNotWrittenAfterIt() {
        // An operator's rollback reads the running change; before it is written, the leader completes the change:
        // COMPLETING, shards 2 and 3 retired (their keys removed), STABLE. The routing epoch and the step are what the
        // operator read again (a completion keeps the epoch and clears the step); only the state tells.
        PendingRollback rollback = rollbackReadWhileShrinkingTo2();
        tickUntilStable();
        assertThat(topology()).containsEntry("state", "STABLE").containsEntry("routing_epoch",
                Long.toString(rollback.read().routingEpoch())).doesNotContainKey("step");
        assertThat(exists(3)).as("retired by the change that completed").isFalse();
        // The leader wrote the change as completing (state unchanged, step COMPLETING) before it retired shards,
        // then STABLE: its history has both writes.
        Map<String, String> stateByReason = new HashMap<>();
        new JsonArray(topology().get("history")).forEach(o -> {
            JsonObject h = (JsonObject) o;
            stateByReason.put(h.getString("reason"), h.getString("state"));
        });
        assertThat(stateByReason).containsEntry("every group passed the cutover of epoch 2; completing", "RESHARDING")
                .containsEntry("completed: 2 shards", "STABLE");

        assertThat(rollback.write()).as("the rollback read before the change completed").isEqualTo(0);
        assertThat(topology()).containsEntry("state", "STABLE").containsEntry("shards", "2");
    }

    /** An operator's rollback of a running shrink 4 -> 2, read and decided but not written yet. */
    private record PendingRollback(Reshard machine, ReshardStore.Expected read, ReshardStore store) {

        /** Writes the rollback under what was read: 1 if written, 0 if the topology changed since. */
        int write() {
            return result(store.write(machine, read, "rollback", Map.of()), WAIT);
        }
    }

    /** Starts a shrink to 2 shards, drains its left-out shards, then reads and decides an operator's rollback. */
    private PendingRollback rollbackReadWhileShrinkingTo2() {
        change(r -> r.start(2));
        tick();
        drain(4);
        Reshard operator = result(store.read(stream), WAIT).orElseThrow();
        ReshardStore.Expected read = ReshardStore.Expected.of(operator);
        operator.rollback();
        return new PendingRollback(operator, read, store);
    }

    private void change(Consumer<Reshard> step) {
        Reshard machine = result(store.read(stream), WAIT).orElseThrow();
        ReshardStore.Expected read = ReshardStore.Expected.of(machine);
        step.accept(machine);
        assertThat(result(store.write(machine, read, "test", Map.of()), WAIT)).isEqualTo(1);
    }

    private void tick() {
        result(task.lead(), WAIT);
    }

    /** Ticks until the stream is STABLE; each tick is one step, a handful are enough for any change here. */
    private void tickUntilStable() {
        for (int i = 0; i < 10 && !"STABLE".equals(topology().get("state")); i++) {
            tick();
        }
        assertThat(topology()).containsEntry("state", "STABLE");
    }

    /** The group reads and acknowledges every entry of shards {@code [0, shards)}. */
    private void drain(int shards) {
        for (int i = 0; i < shards; i++) {
            Response entries = send(Request.cmd(Command.XRANGE).arg(key(i)).arg("-").arg("+"));
            if (entries.size() == 0) {
                continue;
            }
            send(Request.cmd(Command.XREADGROUP).arg("GROUP").arg(GROUP).arg("test").arg("COUNT").arg(1_000)
                    .arg("STREAMS").arg(key(i)).arg(">"));
            Request ack = Request.cmd(Command.XACK).arg(key(i)).arg(GROUP);
            for (int e = 0; e < entries.size(); e++) {
                ack.arg(entries.get(e).get(0).toString());
            }
            send(ack);
        }
    }

    /** A fenced read of new entries of {@code shard} by the group's only member. */
    private ShardCommands.ReadResult read(ShardCommands commands, int shard) {
        ShardId id = new ShardId(stream, shard);
        result(commands.setOwner(id, GROUP, "m", 1), WAIT);
        return result(commands.read(id, GROUP, "m", 1, 100, ">"), WAIT);
    }

    private Map<String, String> topology() {
        return RedisReplies.toStringMap(send(Request.cmd(Command.HGETALL).arg("{" + stream + ":topology}")));
    }

    private Map<String, String> routing(int shard) {
        return RedisReplies.toStringMap(send(Request.cmd(Command.HGETALL).arg(ShardRouting.routingKey(stream, shard))));
    }

    private List<String> groups(int shard) {
        Response reply = send(Request.cmd(Command.XINFO).arg("GROUPS").arg(key(shard)));
        List<String> names = new ArrayList<>();
        for (int i = 0; i < reply.size(); i++) {
            names.add(RedisReplies.toStringMap(reply.get(i)).get("name"));
        }
        return names;
    }

    private boolean exists(int shard) {
        return send(Request.cmd(Command.EXISTS).arg(key(shard))).toInteger() == 1;
    }

    private String key(int shard) {
        return ShardRouting.shardKey(stream, shard);
    }

    private Response send(Request request) {
        return result(redis.send(request), WAIT);
    }
}
