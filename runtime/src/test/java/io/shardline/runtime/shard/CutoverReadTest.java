package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.GROUP;
import static io.shardline.runtime.shard.MemberHarness.settings;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The read rule of live resharding on a real Redis (docs/protocol.md section 8b): a member's shard reads up to the
 * smallest cutover its group's barrier has not passed, waits there ({@link ShardPhase#AT_CUTOVER}), and reads on once
 * {@code released:<group>} in the shard's routing hash reaches the epoch. The routing hash is written by hand here, as
 * the routing library's flip and the leader's release would write it.
 */
@RedisTest
class CutoverReadTest {

    private static final ShardId S = new ShardId("orders", 0);
    /** The cutover poll of these members; every wait below is derived from it. */
    private static final long POLL_MS = 50;
    /** How long a released shard may take to read on: a poll, plus the command timeout of MemberHarness for the reads. */
    private static final long RESUME_MS = POLL_MS + 10_000;

    private MemberHarness h;

    @BeforeEach
    void setUp(RedisServer server) {
        h = new MemberHarness(server.uri());
    }

    @AfterEach
    void tearDown() {
        h.close();
    }

    @Test
    void aMemberStopsAtACutoverHandlesEverythingUpToItAndResumesOnceReleased() {
        h.own(List.of(S), "A", 1);
        List<String> before = add(h.redis, S, 10);
        routing("epoch", "2", "cutover:2", before.get(9));
        List<String> after = add(h.redis, S, 10);
        RecordingHandler handler = new RecordingHandler();
        // batches of 4: full reads take the transaction hot path, which hands a bounded read to the script
        MemberShards a = h.member("A", handler, settings(2, 4).withCutoverPoll(POLL_MS));
        await(a.acquire(S, 1));

        waitUntil("the shard waits at the cutover of epoch 2", RESUME_MS, () -> a.phase(S).orElseThrow() == ShardPhase.AT_CUTOVER);
        assertThat(handler.handled(S)).containsExactlyElementsOf(before);
        waitUntil("everything up to the cutover acknowledged", RESUME_MS, () -> h.pending(S) == 0);
        assertThat(await(a.atCutover())).isEqualTo(Map.of(S, 2L));
        assertThat(routingField("waiting:" + GROUP)).startsWith("2:");
        assertThat(handler.handled(S)).as("nothing beyond the cutover, several polls later").containsExactlyElementsOf(before);

        long released = System.nanoTime();
        routing("released:" + GROUP, "2");
        waitUntil("the records after the cutover handled", RESUME_MS, () -> handler.handled(S).size() == 20);
        System.out.println("FIGURE cutover_resume_ms=" + (System.nanoTime() - released) / 1_000_000 + " poll_ms=" + POLL_MS);
        assertThat(handler.handled(S).subList(10, 20)).containsExactlyElementsOf(after);
        assertThat(a.phase(S)).contains(ShardPhase.READING);
        assertThat(routingField("waiting:" + GROUP)).as("the waiting mark goes once the group reads on").isNull();
    }

    @Test
    void aNewShardOfAScaleOutReadsNothingUntilReleased() {
        h.own(List.of(S), "A", 1);
        routing("epoch", "2", "cutover:2", "0-0");
        List<String> written = add(h.redis, S, 5);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(2, 10).withCutoverPoll(POLL_MS));
        await(a.acquire(S, 1));

        waitUntil("the shard waits at the cutover of epoch 2", RESUME_MS, () -> a.phase(S).orElseThrow() == ShardPhase.AT_CUTOVER);
        assertThat(h.pending(S)).as("nothing delivered").isZero();
        assertThat(handler.handled(S)).isEmpty();

        routing("released:" + GROUP, "2");
        waitUntil("the 5 records handled", RESUME_MS, () -> handler.handled(S).size() == 5);
        assertThat(handler.handled(S)).containsExactlyElementsOf(written);
    }

    @Test
    void twoGroupsOnOneStreamWaitAndResumeIndependently() {
        h.own(List.of(S), "A", 1);
        await(h.commands.ensureGroup(S, "audit", "0"));
        await(h.commands.setOwner(S, "audit", "B", 1));
        List<String> before = add(h.redis, S, 3);
        routing("epoch", "2", "cutover:2", before.get(2));
        List<String> after = add(h.redis, S, 3);
        RecordingHandler orders = new RecordingHandler();
        RecordingHandler audit = new RecordingHandler();
        MemberShards a = h.member("A", orders, settings(2, 10).withCutoverPoll(POLL_MS));
        MemberShards b = h.member("B", audit, ConsumerSettings.defaults("audit", MemberHarness.DLQ).withCutoverPoll(POLL_MS));
        await(a.acquire(S, 1));
        await(b.acquire(S, 1));
        waitUntil("both groups wait at the cutover", RESUME_MS, () -> a.phase(S).orElseThrow() == ShardPhase.AT_CUTOVER
                && b.phase(S).orElseThrow() == ShardPhase.AT_CUTOVER);

        routing("released:" + GROUP, "2");
        waitUntil("group g reads on", RESUME_MS, () -> orders.handled(S).size() == 6);
        assertThat(b.phase(S)).as("group audit still waits").contains(ShardPhase.AT_CUTOVER);
        assertThat(audit.handled(S)).containsExactlyElementsOf(before);

        routing("released:audit", "2");
        waitUntil("group audit reads on", RESUME_MS, () -> audit.handled(S).size() == 6);
        assertThat(audit.handled(S).subList(3, 6)).containsExactlyElementsOf(after);
    }

    @Test
    void aStackedChangeReleasesItsCutoversInOrder() {
        h.own(List.of(S), "A", 1);
        List<String> first = add(h.redis, S, 4);
        routing("epoch", "2", "cutover:2", first.get(3));
        List<String> second = add(h.redis, S, 4);
        routing("epoch", "3", "cutover:3", second.get(3));
        List<String> third = add(h.redis, S, 4);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(2, 10).withCutoverPoll(POLL_MS));
        await(a.acquire(S, 1));

        waitUntil("the shard waits at the cutover of epoch 2", RESUME_MS, () -> a.phase(S).orElseThrow() == ShardPhase.AT_CUTOVER);
        assertThat(handler.handled(S)).containsExactlyElementsOf(first);
        routing("released:" + GROUP, "2");
        waitUntil("the shard waits at the cutover of epoch 3", RESUME_MS, () -> handler.handled(S).size() == 8
                && Map.of(S, 3L).equals(await(a.atCutover())));
        assertThat(handler.handled(S).subList(4, 8)).containsExactlyElementsOf(second);
        routing("released:" + GROUP, "3");
        waitUntil("everything handled", RESUME_MS, () -> handler.handled(S).size() == 12);
        assertThat(handler.handled(S).subList(8, 12)).containsExactlyElementsOf(third);
    }

    @Test
    void aFinishedChangeWhoseFieldsAreRemovedReleasesTheWaitingShard() {
        h.own(List.of(S), "A", 1);
        routing("epoch", "2", "cutover:2", "0-0");
        add(h.redis, S, 2);
        RecordingHandler handler = new RecordingHandler();
        MemberShards a = h.member("A", handler, settings(2, 10).withCutoverPoll(POLL_MS));
        await(a.acquire(S, 1));
        waitUntil("the shard waits at the cutover of epoch 2", RESUME_MS, () -> a.phase(S).orElseThrow() == ShardPhase.AT_CUTOVER);

        await(h.redis.send(Request.cmd(Command.HDEL).arg(Fence.routingKey(S)).arg("cutover:2")));
        waitUntil("the 2 records handled", RESUME_MS, () -> handler.handled(S).size() == 2);
    }

    private void routing(String... fieldsAndValues) {
        Request req = Request.cmd(Command.HSET).arg(Fence.routingKey(S));
        for (String s : fieldsAndValues) {
            req.arg(s);
        }
        await(h.redis.send(req));
    }

    private String routingField(String field) {
        Response r = await(h.redis.send(Request.cmd(Command.HGET).arg(Fence.routingKey(S)).arg(field)));
        return r == null ? null : r.toString();
    }
}
