package io.shardline.runtime.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.config.TcpIpConfig;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * How a worker's member joins, from what the seed probe found: a listening seed gives a loaded member five seconds to
 * answer, nobody listening gives the first seed a start without the joiner's wait and the others the one-second
 * search that finds simultaneous starters. The cluster behaviour itself is {@link WorkerClusterTest}'s.
 */
class JoinPlanTest {

    private static final List<String> SEEDS = List.of("127.0.0.1:5701", "127.0.0.1:5702", "127.0.0.1:5703");

    private static ClusterSettings worker(String host, int port, List<String> members) {
        return new ClusterSettings("c", "w-" + port, host, port, members, 15_000, 5_000, Map.of());
    }

    private static TcpIpConfig tcpIp(ClusterSettings settings, JoinPlan plan) {
        return HazelcastConfigs.forWorker(settings, plan).getNetworkConfig().getJoin().getTcpIpConfig();
    }

    @Test
    void aListeningSeedIsGivenFiveSecondsToAnswer() {
        ClusterSettings first = worker("127.0.0.1", 5701, SEEDS);
        JoinPlan plan = JoinPlan.decide(first, Optional.of("127.0.0.1:5702"));
        assertThat(plan.formAtOnce()).as("a running cluster is joined, even by the first seed").isFalse();
        assertThat(tcpIp(first, plan).getConnectionTimeoutSeconds()).isEqualTo(5);
        assertThat(tcpIp(first, plan).getRequiredMember()).isNull();
        assertThat(plan.reason()).isEqualTo("seed 127.0.0.1:5702 was listening");
    }

    @Test
    void theFirstSeedFormsTheClusterAtOnceWhenNobodyListens() {
        ClusterSettings first = worker("127.0.0.1", 5701, SEEDS);
        JoinPlan plan = JoinPlan.decide(first, Optional.empty());
        assertThat(plan.formAtOnce()).isTrue();
        assertThat(tcpIp(first, plan).getRequiredMember()).isEqualTo("127.0.0.1:5701");
        assertThat(tcpIp(first, plan).getMembers()).as("the seeds stay, for the split-brain search").isEqualTo(SEEDS);
        assertThat(plan.reason()).contains("the first seed forms the cluster at once");
    }

    @Test
    void theOtherSeedsAskForAMasterForASecond() {
        for (ClusterSettings other : List.of(worker("127.0.0.1", 5702, SEEDS),
                worker("127.0.0.1", 5701, List.of("127.0.0.1:5703", "127.0.0.1:5701")),
                worker("127.0.0.1", 5704, SEEDS),
                worker("localhost", 5701, List.of("localhost:5701", "localhost:5702")))) {
            JoinPlan plan = JoinPlan.decide(other, Optional.empty());
            assertThat(plan.formAtOnce()).as("%s:%d among %s", other.host(), other.port(), other.members()).isFalse();
            assertThat(tcpIp(other, plan).getConnectionTimeoutSeconds()).isEqualTo(1);
            assertThat(tcpIp(other, plan).getRequiredMember()).isNull();
        }
    }
}
