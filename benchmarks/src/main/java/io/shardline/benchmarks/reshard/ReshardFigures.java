package io.shardline.benchmarks.reshard;

import io.shardline.producer.KeyPartitioner;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of a change under load, from the first handling of every record (docs/benchmarks.md, "Resharding"):
 *
 * <ul>
 *   <li>the wait at the cutover of each key whose shard changes: its first record written in the new layout, from
 *       being written to being handled, less what its parents' drain allows (their cutover entries handled after the
 *       record was written); the target: no more than one heartbeat interval;</li>
 *   <li>p99 latency (written to handled) of keys whose shard does not change, before the change and during it;</li>
 *   <li>where a new shard's wait goes ({@link RoutingWatch}): from its parents' drain to its barrier's release (the
 *       leader's part), and from the release to its first record handled (the member's part); and how many shards
 *       whose keys stay put waited at their cutover at all.</li>
 * </ul>
 * Pure: wall-clock milliseconds of one host in, figures out.
 */
final class ReshardFigures {

    /** One record's first handling. */
    record Handled(String key, int shard, String id, long producedMs, long handledMs) {
        long latencyMs() {
            return handledMs - producedMs;
        }
    }

    private ReshardFigures() {
    }

    /**
     * Prints the figures of a change from {@code from} to {@code to} shards requested at {@code requestMs} and
     * {@code STABLE} at {@code stableMs}, whose routing hashes were watched by {@code routing}.
     */
    static void print(Collection<Handled> handled, int from, int to, long requestMs, long stableMs,
                      RoutingWatch routing, long heartbeatMs, long beforeMs) {
        Map<Integer, String> cutovers = routing.cutovers;
        Map<String, Long> cutoverHandled = new HashMap<>();
        for (Handled h : handled) {
            if (h.id().equals(cutovers.get(h.shard())) && h.shard() < from) {
                cutoverHandled.put(h.shard() + "/" + h.id(), h.handledMs());
            }
        }
        List<Long> before = new ArrayList<>();
        List<Long> during = new ArrayList<>();
        Map<String, Handled> firstMoved = new HashMap<>();
        for (Handled h : handled) {
            int old = KeyPartitioner.shardFor(h.key(), from);
            int now = KeyPartitioner.shardFor(h.key(), to);
            if (old == now) {
                if (h.producedMs() >= requestMs - beforeMs && h.producedMs() < requestMs) {
                    before.add(h.latencyMs());
                } else if (h.producedMs() >= requestMs && h.producedMs() <= stableMs) {
                    during.add(h.latencyMs());
                }
            } else if (h.shard() == now) {
                firstMoved.merge(h.key(), h, (a, b) -> a.producedMs() <= b.producedMs() ? a : b);
            }
        }
        List<Long> excess = new ArrayList<>();
        List<Long> waits = new ArrayList<>();
        int unknownParents = 0;
        for (Handled r : firstMoved.values()) {
            long drained = drained(r.shard(), from, to, cutovers, cutoverHandled, requestMs);
            if (drained == Long.MAX_VALUE) {
                unknownParents++;
                continue;
            }
            waits.add(r.latencyMs());
            excess.add(r.handledMs() - Math.max(r.producedMs(), drained));
        }
        long over = excess.stream().filter(e -> e > heartbeatMs).count();
        System.out.printf("FIGURE reshard_moved_keys=%d%n", firstMoved.size());
        System.out.printf("FIGURE reshard_moved_key_wait_ms p50=%d p99=%d max=%d%n", pct(waits, 0.5), pct(waits, 0.99),
                pct(waits, 1.0));
        System.out.printf("FIGURE reshard_wait_beyond_parents_drain_ms p50=%d p99=%d max=%d (target <= heartbeat %d ms;"
                + " %d of %d over; %d keys whose parents' cutover entry was not seen)%n", pct(excess, 0.5),
                pct(excess, 0.99), pct(excess, 1.0), heartbeatMs, over, excess.size(), unknownParents);
        System.out.printf("FIGURE reshard_unchanged_keys_p99_ms before=%d during=%d (n=%d, %d; target during <= 2x"
                + " before)%n", pct(before, 0.99), pct(during, 0.99), before.size(), during.size());
        printSplit(handled, from, to, requestMs, routing, cutoverHandled);
    }

    /** The leader's and the member's parts of the new shards' waits, and the old shards that waited at all. */
    private static void printSplit(Collection<Handled> handled, int from, int to, long requestMs, RoutingWatch routing,
                                   Map<String, Long> cutoverHandled) {
        Map<Integer, Long> firstHandled = new HashMap<>();
        for (Handled h : handled) {
            if (h.handledMs() >= requestMs) {
                firstHandled.merge(h.shard(), h.handledMs(), Math::min);
            }
        }
        List<Long> leader = new ArrayList<>();
        List<Long> member = new ArrayList<>();
        for (int c = from; c < to; c++) {
            Long released = routing.releasedAt.get(c);
            long drained = drained(c, from, to, routing.cutovers, cutoverHandled, requestMs);
            if (released != null && drained != Long.MAX_VALUE) {
                leader.add(released - drained);
            }
            if (released != null && firstHandled.containsKey(c)) {
                member.add(firstHandled.get(c) - released);
            }
        }
        List<Long> unchanged = new ArrayList<>();
        for (int c = 0; c < Math.min(from, to); c++) {
            Long released = routing.releasedAt.get(c);
            Long flipped = routing.flippedAt.get(c);
            if (released != null && flipped != null) {
                unchanged.add(released - flipped);
            }
        }
        long waited = routing.waited.stream().filter(c -> c < Math.min(from, to)).count();
        System.out.printf("FIGURE reshard_release_after_parents_drain_ms p50=%d p99=%d max=%d (new shards, n=%d: the"
                + " leader's part)%n", pct(leader, 0.5), pct(leader, 0.99), pct(leader, 1.0), leader.size());
        System.out.printf("FIGURE reshard_first_handled_after_release_ms p50=%d p99=%d max=%d (new shards, n=%d: the"
                + " member's part)%n", pct(member, 0.5), pct(member, 0.99), pct(member, 1.0), member.size());
        System.out.printf("FIGURE reshard_old_shards_release_after_flip_ms p50=%d max=%d (negative: released before"
                + " flipped, as seen every 10 ms); waited at the cutover: %d of %d%n", pct(unchanged, 0.5),
                pct(unchanged, 1.0), waited, Math.min(from, to));
    }

    /**
     * When the parents of new shard {@code c} were drained: the latest handling of their cutover entries (the request
     * for a parent without one), or {@code Long.MAX_VALUE} when a parent's cutover entry was not seen.
     */
    private static long drained(int c, int from, int to, Map<Integer, String> cutovers,
                                Map<String, Long> cutoverHandled, long requestMs) {
        long drained = Long.MIN_VALUE;
        for (int p = c % gcd(from, to); p < from; p += gcd(from, to)) {
            String cut = cutovers.get(p);
            Long at = cut == null ? null : "0-0".equals(cut) ? Long.valueOf(requestMs) : cutoverHandled.get(p + "/" + cut);
            if (at == null) {
                return Long.MAX_VALUE;
            }
            drained = Math.max(drained, at);
        }
        return drained;
    }

    static long pct(List<Long> values, double q) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = values.stream().sorted().toList();
        int rank = Math.max(0, (int) Math.ceil(q * sorted.size()) - 1);
        return sorted.get(Math.min(sorted.size() - 1, rank));
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }
}
