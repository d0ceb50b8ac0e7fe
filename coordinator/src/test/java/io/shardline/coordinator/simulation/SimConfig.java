package io.shardline.coordinator.simulation;

import io.shardline.coordinator.group.RebalanceProtocol;
import java.util.Random;

/**
 * The shape of one simulated run, drawn from its seed.
 *
 * @param members members at the start
 * @param shards shards of the stream at the start
 * @param protocol the group's rebalance protocol
 * @param assignor the assignor name
 * @param staticMembers true when members carry static instance ids
 * @param sessionTimeoutMs the session timeout
 * @param heartbeatIntervalMs the heartbeat interval
 * @param selfFenceMarginMs the members' self-fence margin
 * @param maxDrainMs the longest a revoked shard takes to drain
 * @param faultEndMs when faults and membership changes stop
 * @param rebalanceTimeoutMs the group's rebalance timeout (also the members')
 * @param hangPercent how many revocations (in percent) hang while faults last: the drain never finishes though
 *     the member keeps heartbeating (a handler that never returns); 0 in a third of the seeds
 */
record SimConfig(
        int members,
        int shards,
        RebalanceProtocol protocol,
        String assignor,
        boolean staticMembers,
        int sessionTimeoutMs,
        int heartbeatIntervalMs,
        int selfFenceMarginMs,
        int maxDrainMs,
        long faultEndMs,
        int rebalanceTimeoutMs,
        int hangPercent) {

    /**
     * Every built-in assignor: {@code cooperative-sticky} withholds moving shards until they are released, which
     * only the liveness check ("every shard owned once membership stops changing") notices when it stalls.
     */
    private static final String[] ASSIGNORS = {"range", "round-robin", "sticky", "cooperative-sticky"};

    /** Request timeout of a member: two heartbeat intervals. */
    int requestTimeoutMs() {
        return 2 * heartbeatIntervalMs;
    }

    /**
     * The stability bound this run is checked against, from the end of faults: one session timeout (the last
     * dead member or ghost expires; a new leader's grace ends) or one rebalance timeout (the last hung drain is
     * fenced), whichever is longer, plus 12 heartbeat intervals and two drains (revoke, report, grant, start, for
     * a member that must first rejoin).
     */
    long stabilityBoundMs() {
        return Math.max(sessionTimeoutMs, rebalanceTimeoutMs) + 12L * heartbeatIntervalMs + 2L * maxDrainMs;
    }

    /**
     * How long after a member learnt of a revocation whose drain hangs the leader must have released the shard,
     * when no failover, crash, pause or leave of that member interfered: the rebalance timeout, then fence, rejoin
     * and one heartbeat under the new epoch that proves the shard stopped (four heartbeat intervals with network
     * delays), plus a request timeout for each request of the member lost on the way and for each extra fence
     * (a duplicated join makes the coordinator start yet another lifecycle, which fences the first answer's epoch).
     */
    long hungRevocationBoundMs(int lostRequests, int extraFences) {
        return rebalanceTimeoutMs + 4L * heartbeatIntervalMs + (long) (lostRequests + extraFences) * requestTimeoutMs();
    }

    /** The bound of a hung revocation whatever the network does: it resolves by the lease at the latest. */
    long hungRevocationHardBoundMs() {
        return rebalanceTimeoutMs + sessionTimeoutMs + 12L * heartbeatIntervalMs;
    }

    static SimConfig draw(Random random) {
        int session = 3000;
        int heartbeat = 300;
        return new SimConfig(
                2 + random.nextInt(4),
                2 + random.nextInt(14),
                random.nextInt(4) == 0 ? RebalanceProtocol.EAGER : RebalanceProtocol.COOPERATIVE,
                ASSIGNORS[random.nextInt(ASSIGNORS.length)],
                random.nextInt(3) == 0,
                session,
                heartbeat,
                2 * heartbeat + 200,
                200,
                8_000 + random.nextInt(12_000),
                1_000 + random.nextInt(3_000),
                random.nextInt(3) == 0 ? 0 : 5 + random.nextInt(20));
    }
}
