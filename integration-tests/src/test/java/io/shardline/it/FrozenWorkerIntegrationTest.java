package io.shardline.it;

import io.shardline.testkit.redis.RedisServer;
import io.shardline.testkit.redis.RedisTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A frozen worker that does not lead costs the other workers nothing: on three real worker JVMs with the default
 * timeouts, a worker that does not lead is frozen ({@code SIGSTOP}) for 0.5, 1 and 2 session timeouts, each resumed
 * ({@code SIGCONT}) after it; what is checked after each fault is in {@link FrozenFaults} (no fence and no owner
 * change on the other workers, no leadership change, the target's shards owned again within session timeout + one
 * heartbeat interval). The leader's faults are {@link FrozenLeaderIntegrationTest}'s.
 * Tagged {@code integration}; about ninety seconds. Alone: {@code mvn -B -ntp verify -pl integration-tests -am
 * -Dtest=FrozenWorkerIntegrationTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@RedisTest
class FrozenWorkerIntegrationTest {

    private ItFleet fleet;

    @AfterEach
    void stopAll() {
        if (fleet != null) {
            fleet.close();
        }
    }

    @Test
    void aFrozenWorkerCostsOtherWorkersNothing(RedisServer redis) throws Exception {
        fleet = ItFleet.create("frozen-worker");
        FrozenFaults.start(fleet, redis).freezeThreeTimes(false);
    }
}
