package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MemberHarness.settings;
import static io.shardline.runtime.shard.ShardTesting.add;
import static io.shardline.runtime.shard.ShardTesting.await;
import static io.shardline.runtime.shard.ShardTesting.waitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Redis restart that loses everything (no persistence): the function library, the owner keys, the
 * streams and the groups. The member must not stop silently: it waits while no owner is recorded, loads
 * the library again, creates the group again, and goes on.
 */
@RedisTest
class RedisRestartTest {

    @Test
    void consumptionResumesAfterRedisRestartsEmpty(RedisServer server) {
        ShardId s = new ShardId("orders", 0);
        try (MemberHarness h = new MemberHarness(server.uri())) {
            h.own(List.of(s), "A", 1);
            RecordingHandler handler = new RecordingHandler();
            MemberShards a = h.member("A", handler, settings(2, 10));
            await(a.acquire(s, 1));
            List<String> before = add(h.redis, s, 5);
            waitUntil("handled before the restart", 10_000, () -> handler.handled(s).size() == 5);

            server.restart();
            // The coordinator side writes the owner again (the member keeps waiting on NOOWNER meanwhile).
            waitUntil("Redis answers again", 10_000, () -> {
                try {
                    await(h.commands.setOwner(s, MemberHarness.GROUP, "A", 1));
                    return true;
                } catch (RuntimeException e) {
                    return false;
                }
            });
            List<String> after = new ArrayList<>();
            waitUntil("records after the restart handled", 20_000, () -> {
                if (after.isEmpty()) {
                    after.addAll(add(h.redis, s, 5));
                }
                return handler.handled(s).size() == 10;
            });
            List<String> all = new ArrayList<>(before);
            all.addAll(after);
            assertThat(handler.handled(s)).containsExactlyElementsOf(all);
            assertThat(a.ownedShards()).containsExactly(s);
            waitUntil("acked", 5_000, () -> h.pending(s) == 0);
        }
    }
}
