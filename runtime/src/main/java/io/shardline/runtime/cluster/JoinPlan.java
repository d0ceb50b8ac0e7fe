package io.shardline.runtime.cluster;

import java.util.Optional;

/**
 * How a worker's Hazelcast member joins, decided before it starts from what {@link SeedProbe} found
 * (docs/operations.md, "Start time"):
 *
 * <ul>
 *   <li>a seed listens: the TCP/IP joiner may wait up to 5 s (Hazelcast's default) for the running member's answer,
 *       which a member on a loaded machine needs; it returns as soon as the master answers;</li>
 *   <li>nobody listens and this worker is the <em>first</em> seed of {@code cluster.members}: it forms the cluster at
 *       once (Hazelcast's required member set to itself), without the joiner's one-second wait for absent seeds. The
 *       other seeds wait for it: started at the same moment, each of them asks every seed for a master for a second
 *       and finds this one;</li>
 *   <li>nobody listens, any other worker: the joiner asks the seeds for 1 s (the least it waits), so that workers
 *       started at the same moment find each other instead of forming clusters side by side.</li>
 * </ul>
 *
 * <p>Either way the full seed list stays configured, so a worker that formed a cluster alone still searches the
 * seeds for other clusters to merge with ({@code cluster.merge.delay.ms}).
 *
 * @param timeoutSeconds the TCP/IP joiner's connection timeout
 * @param formAtOnce whether the member becomes master without asking the seeds
 * @param reason what the probe found, for the start-up log line
 */
public record JoinPlan(int timeoutSeconds, boolean formAtOnce, String reason) {

    /** The plan for a worker with {@code settings} when the probe found {@code listeningSeed}. */
    public static JoinPlan decide(ClusterSettings settings, Optional<String> listeningSeed) {
        if (listeningSeed.isPresent()) {
            return new JoinPlan(5, false, "seed " + listeningSeed.get() + " was listening");
        }
        if (isFirstSeed(settings)) {
            return new JoinPlan(1, true, "no seed was listening; the first seed forms the cluster at once");
        }
        return new JoinPlan(1, false, "no seed was listening");
    }

    /**
     * Whether this worker's own address is the first of {@code cluster.members}, written as Hazelcast will see it: an
     * IPv4 literal and the member port, with no public address in front (Hazelcast matches its own address against
     * the required member; a host name or a translated address might not match, and the joiner would then wait for
     * itself).
     */
    private static boolean isFirstSeed(ClusterSettings settings) {
        return !settings.members().isEmpty() && settings.ports().memberPublicPort() == 0
                && settings.hostIsIpv4() && settings.members().get(0).equals(settings.memberAddress());
    }
}
