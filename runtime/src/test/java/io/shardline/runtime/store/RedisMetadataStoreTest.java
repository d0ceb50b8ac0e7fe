package io.shardline.runtime.store;

import static io.shardline.runtime.testing.Await.result;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.handler.ShardId;
import io.shardline.coordinator.group.GroupConfig;
import io.shardline.coordinator.group.MemberState;
import io.shardline.coordinator.record.ChangeReason;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.shardline.coordinator.record.MemberMetadataRecord;
import io.shardline.coordinator.record.MemberStateRecord;
import io.shardline.coordinator.record.Records;
import io.shardline.coordinator.store.StoreConflictException;
import io.shardline.coordinator.store.StoreState;
import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisConfig;
import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@RedisTest
class RedisMetadataStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private Vertx vertx;
    private RedisClient redis;
    private RedisGroupLog log;

    @BeforeEach
    void start(RedisServer server) {
        vertx = Vertx.vertx();
        redis = result(RedisClient.connect(vertx, RedisConfig.standalone(server.uri()), new SplittableRandom(9)), WAIT);
        log = new RedisGroupLog(redis, new MetadataKeys("c-" + UUID.randomUUID()));
    }

    @AfterEach
    void stop() {
        result(redis.close(), WAIT);
        result(vertx.close(), WAIT);
    }

    private static List<CoordinatorRecord> sample() {
        ShardId s0 = new ShardId("orders", 0);
        ShardId s1 = new ShardId("orders", 1);
        TreeMap<ShardId, Integer> assigned = new TreeMap<>(Map.of(s0, 3));
        return List.of(
                Records.newGroupConfigRecord(GroupConfig.of("g", Map.of("orders", 2), "range", 10_000, 1_000)),
                Records.newGroupEpochRecord("g", 1, ChangeReason.GROUP_CREATED),
                new MemberMetadataRecord("g", "w1-l-m0", Optional.of("i1"), Optional.empty(), new TreeSet<>(List.of("orders"))),
                new MemberStateRecord("g", "w1-l-m0", 2, 1, MemberState.STABLE, assigned, new TreeSet<>(List.of(s1))),
                Records.newShardOwnerRecord("g", s0, "w1-l-m0", 3),
                Records.newTargetAssignmentRecord("g", "w1-l-m0", new TreeSet<>(List.of(s0, s1))));
    }

    @Test
    void recordsRoundTripThroughJson() {
        RecordCodec codec = new RecordCodec();
        for (CoordinatorRecord record : sample()) {
            assertEquals(record, codec.decode(codec.encode(record)));
        }
        assertThat(codec.encode(sample().get(4))).contains("\"{orders:0}\"");
        assertThatThrownBy(() -> codec.decode("{\"type\":\"Nope\",\"record\":{}}")).hasMessageContaining("'Nope'");
    }

    @Test
    void deposedLeaderIsRefusedThroughTheCoordinatorInterface() {
        RedisMetadataStore first = new RedisMetadataStore(log, new RecordCodec(), "w1", 5_000);
        RedisMetadataStore second = new RedisMetadataStore(log, new RecordCodec(), "w2", 5_000);
        StoreState claimed = first.claimLeadership();
        long rev = first.append(claimed.leaderEpoch(), claimed.revision(), sample());
        StoreState taken = second.claimLeadership();
        assertEquals(sample(), taken.records());
        assertEquals(rev, taken.revision());
        assertThatThrownBy(() -> first.append(claimed.leaderEpoch(), rev, sample()))
                .isInstanceOfSatisfying(StoreConflictException.class,
                        e -> assertEquals(StoreConflictException.Kind.STALE_LEADER_EPOCH, e.kind()));
        long compacted = second.compact(taken.leaderEpoch(), rev, sample().subList(0, 2));
        assertEquals(new StoreState(taken.leaderEpoch(), compacted, sample().subList(0, 2)), second.load());
    }
}
