package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The checker on a run with a resharding: keys 0..4 (record n has key n mod 5), 2 shards until the change, 4 after
 * it. Key 3 is on shard 1 before (3 mod 2) and on shard 3 after (3 mod 4); shards 2 and 3 are retired at the end
 * when the stream goes back to 2.
 */
class ReshardCheckTest {

    private static final int KEYS = 5;

    private final List<Produced> produced = new ArrayList<>();
    private final List<HandlingLine> handlings = new ArrayList<>();
    private final Map<Integer, List<EntryId>> inRedis = new TreeMap<>();

    /** Record {@code seq} written to the layout of {@code shards}, acknowledged at {@code seq} ms. */
    private EntryId produce(int seq, int shards) {
        int shard = (int) (ChaosSettings.keyOf(seq, KEYS) % shards);
        EntryId id = new EntryId(seq, 0);
        produced.add(new Produced(shard, seq, id, seq));
        inRedis.computeIfAbsent(shard, s -> new ArrayList<>()).add(id);
        return id;
    }

    private void handle(int seq, long startMs) {
        Produced p = produced.stream().filter(x -> x.seq() == seq).findFirst().orElseThrow();
        handlings.add(new HandlingLine("chaos", "chaos", p.shard(), p.entryId().toString(), seq,
                "w1-chaos-m0", 1, startMs, startMs + 1, 1, startMs, startMs));
    }

    private History history(int shardsAtEnd, int shardsEver) {
        Map<Integer, ShardState> shards = new TreeMap<>();
        for (int s = 0; s < shardsEver; s++) {
            List<EntryId> entries = s < shardsAtEnd ? inRedis.getOrDefault(s, List.of()) : List.of();
            shards.put(s, new ShardState(s, entries, Set.of(), entries.isEmpty() ? null : entries.get(entries.size() - 1)));
        }
        return new History("chaos", produced, Set.of(), handlings, List.of(), shards, 0, 10, 3_000, KEYS, shardsAtEnd);
    }

    @Test
    void aKeyHandledInOrderAcrossTheCutoverAndRetiredShardsRemovedIsValid() {
        produce(3, 2); // key 3 on shard 1
        produce(8, 4); // key 3 on shard 3, after the cutover
        handle(3, 100);
        handle(8, 200);

        CheckReport report = Checker.check(history(2, 4));

        assertThat(report.violations()).as(report.render()).isEmpty();
        assertThat(report.count("key.order.violations")).isZero();
        assertThat(report.count("redis.lost")).as("shard 3's records left with its key").isZero();
        assertThat(report.count("shards.at.end")).isEqualTo(2);
    }

    @Test
    void detectsAKeysRecordHandledBeforeAnEarlierOneOnItsOldShard() {
        produce(3, 2);
        produce(8, 4);
        handle(3, 200);
        handle(8, 100); // the new shard read past its cutover before its parent was drained

        CheckReport report = Checker.check(history(4, 4));

        assertThat(report.count("key.order.violations")).isEqualTo(1);
        assertThat(report.count("order.violations")).as("each shard on its own is in order").isZero();
        assertThat(report.violations()).anyMatch(v -> v.startsWith("per-key order violations"));
    }

    @Test
    void aRecordOnAShardRetiredAndGrownBackIsNotMissingFromRedis() {
        produce(3, 4); // key 3 on shard 3; 4 -> 2 retires shard 3 at 1,000, 2 -> 4 grows it back empty
        handle(3, 100);
        inRedis.clear();
        List<FaultEvent> faults = List.of(new FaultEvent(FaultKind.RESHARD, "4->2", 500, 1_000),
                new FaultEvent(FaultKind.RESHARD, "2->4", 2_000, 3_000));
        Map<Integer, ShardState> shards = new TreeMap<>(history(4, 4).shards());

        CheckReport report = Checker.check(new History("chaos", produced, Set.of(), handlings, faults, shards, 0, 10,
                3_000, KEYS, 4));

        assertThat(report.count("redis.lost")).isZero();
        assertThat(report.violations()).as(report.render()).isEmpty();
    }

    @Test
    void detectsEntriesLeftOnARetiredShard() {
        produce(3, 4); // key 3 on shard 3, which the change back to 2 retires
        handle(3, 100);
        History h = history(2, 4);
        Map<Integer, ShardState> shards = new TreeMap<>(h.shards());
        shards.put(3, new ShardState(3, List.of(new EntryId(3, 0)), Set.of(), new EntryId(3, 0)));

        CheckReport report = Checker.check(new History("chaos", produced, Set.of(), handlings, List.of(), shards, 0,
                10, 3_000, KEYS, 2));

        assertThat(report.count("retired.shards.entries")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("entries left on shards a resharding retired"));
    }
}
