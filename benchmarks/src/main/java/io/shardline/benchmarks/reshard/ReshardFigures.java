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
 *   <li>p99 latency (written to handled) of keys whose shard does not change, before the change and during it.</li>
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
     * {@code STABLE} at {@code stableMs}, whose old shards' cutover entries were {@code cutovers} (shard to entry id,
     * {@code 0-0} for none).
     */
    static void print(Collection<Handled> handled, int from, int to, long requestMs, long stableMs,
                      Map<Integer, String> cutovers, long heartbeatMs, long beforeMs) {
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
            long drained = Long.MIN_VALUE;
            for (int p = r.shard() % gcd(from, to); p < from; p += gcd(from, to)) {
                String cut = cutovers.get(p);
                Long at = cut == null ? null : "0-0".equals(cut) ? Long.valueOf(requestMs) : cutoverHandled.get(p + "/" + cut);
                if (at == null) {
                    unknownParents++;
                    drained = Long.MAX_VALUE;
                    break;
                }
                drained = Math.max(drained, at);
            }
            if (drained == Long.MAX_VALUE) {
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
