package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-key order across layouts: for every key, the records the producer wrote (in sequence order, which is the
 * order it wrote them: one write at a time, each acknowledged before the next) are first handled in that order,
 * whichever shard each went to. A resharding moves a key to another shard at the cutover, so this is the order the
 * per-shard check cannot see (docs/protocol.md, "Resharding: the state machine and the barrier"): a record written
 * after the cutover must not be handled before the key's records written before it. A record whose first handling
 * started before that of an earlier record of its key is a violation. Records never handled are the delivery
 * check's. Pure.
 */
final class KeyOrderCheck {

    private KeyOrderCheck() {
    }

    static void check(History history, Map<ShardEntry, List<HandlingLine>> handled, ReportBuilder report) {
        Map<Long, HandlingLine> firstBySeq = new HashMap<>();
        handled.values().forEach(hs -> {
            HandlingLine first = hs.stream().min(Comparator.comparingLong(HandlingLine::startMs)).orElseThrow();
            firstBySeq.merge(first.seq(), first, (a, b) -> a.startMs() <= b.startMs() ? a : b);
        });
        Map<Long, HandlingLine> latestByKey = new HashMap<>();
        List<String> violations = new ArrayList<>();
        for (Produced p : history.produced().stream().sorted(Comparator.comparingLong(Produced::seq)).toList()) {
            HandlingLine h = firstBySeq.get(p.seq());
            if (h == null) {
                continue;
            }
            long key = ChaosSettings.keyOf(p.seq(), history.keys());
            HandlingLine before = latestByKey.get(key);
            if (before != null && h.startMs() < before.startMs()) {
                violations.add("key k" + key + ": seq " + p.seq() + " (shard " + h.shard() + ") first handled at "
                        + h.startMs() + ", before seq " + before.seq() + " (shard " + before.shard() + ") at "
                        + before.startMs());
            } else {
                latestByKey.put(key, h);
            }
        }
        report.count("key.order.violations", violations.size())
                .violationIf(violations, "per-key order violations (a key's record first handled before an earlier"
                        + " one of the key, across shards and layouts)");
    }
}
