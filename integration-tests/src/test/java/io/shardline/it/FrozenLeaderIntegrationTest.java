package io.shardline.it;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A frozen or killed leader costs the other workers nothing: on three real worker JVMs with the default timeouts,
 * the leader is frozen ({@code SIGSTOP}) for 0.5, 1 and 2 session timeouts, each resumed ({@code SIGCONT}) after it,
 * then killed ({@code kill -9}); what is checked after each fault is in {@link FrozenFaults} (no fence and no owner
 * change on the other workers, at most one leadership claim, none by the resumed worker, the target's shards owned
 * again within session timeout + one heartbeat interval). A frozen worker that does not lead is
 * {@link FrozenWorkerIntegrationTest}'s.
 * Tagged {@code integration}; about ninety seconds. Alone: {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=FrozenLeaderIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class FrozenLeaderIntegrationTest {

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void aFrozenOrKilledLeaderCostsOtherWorkersNothing(RedisServer redis) throws Exception {
        fleet = ItFleet.create("frozen-leader");
        FrozenFaults cluster = FrozenFaults.start(fleet, redis);
        cluster.freezeThreeTimes(true);
        cluster.killLeader();
    }
}
