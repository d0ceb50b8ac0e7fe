package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The short chaos run of resharding under crashes ({@link ShortChaosRun}): about a minute with worker start-up, drain
 * and check; a class of its own, so that a second fork can run it beside {@link ChaosRunTest}.
 */
class ChaosReshardRunTest extends ShortChaosRun {

    /**
     * In CI: two changes of the shard count through {@code POST /streams/chaos/reshard} (seed 19: 32 -> 40, then
     * 40 -> 30 rolled back while it runs), each hit by a worker's {@code kill -9} right after its start, over 1,000
     * keys that move shards at each cutover; then every record handled, each key's records first handled in the
     * order they were written across the layouts, and nothing left on the retired shards. Replay: {@code bin/chaos --session-timeout-ms 5000
     * --seed 19 --duration 40s --faults KILL_WORKER --reshards 2 --rate 150} (with the leader's kills too:
     * {@code --faults KILL_WORKER,KILL_LEADER}).
     */
    @Test
    @Tag("integration")
    void reshardsAndRollbacksUnderKillsKeepEveryKeysOrder() throws Exception {
        assertValid(run(19, 40_000, EnumSet.of(FaultKind.KILL_WORKER), 2));
        assertThat(lastReport.count("key.order.violations")).as(where()).isZero();
        assertThat(lastReport.count("retired.shards.entries")).as(where()).isZero();
        assertThat(faultKinds()).as("the changes ran, the first one with a kill right after its start; " + where())
                .contains(FaultKind.RESHARD, FaultKind.KILL_WORKER);
        assertThat(faultKinds().stream().filter(FaultKind::reshard).count()).as(where()).isEqualTo(2);
    }
}
