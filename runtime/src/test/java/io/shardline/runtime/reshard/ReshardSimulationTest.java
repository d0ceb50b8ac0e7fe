package io.shardline.runtime.reshard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A seeded model of a stream under live resharding: producers route keys under the routing epoch with the
 * epoch-checked write of docs/protocol.md, groups read shards under the read rule (bounded at the cutover until
 * released), acknowledge late and out of step, and a leader runs {@link Reshard}'s decisions, dying part-way
 * through them and rebuilt from the persisted chain. Operators start changes, roll back, and change again during a
 * rollback, some of them written a while after they read the chain; every write of the chain (an operator's, the
 * leader's completing and completion) applies only while its routing epoch, state and step are the ones its writer
 * read, as {@link ReshardStore}'s script does. Invariants: a barrier released only when every record of its keys from earlier epochs on other shards
 * is acknowledged by that group; a shard retired only when every group acknowledged every entry there; nothing written to a
 * retired shard; for every key and group, records handled exactly in the order they were produced, none lost.
 */
class ReshardSimulationTest {

    private record Entry(long id, int key, int seq, long epoch) {
    }

    private static final class Shard {
        final List<Entry> entries = new ArrayList<>();
        long epoch = 1;
        final TreeMap<Long, Long> cutovers = new TreeMap<>();
        final Map<String, Long> released = new HashMap<>();
        boolean retired;

        long last() {
            return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).id();
        }
    }

    private static final class GroupOnShard {
        int next;
        final TreeMap<Long, Entry> pending = new TreeMap<>();
    }

    private final Map<Integer, Shard> shards = new HashMap<>();
    private final Map<String, Integer> managed = new TreeMap<>();
    private final Map<String, Map<Integer, GroupOnShard>> groups = new TreeMap<>();
    private final Map<String, Map<Integer, Integer>> handled = new HashMap<>();
    private final Map<Integer, Integer> produced = new HashMap<>();
    private Random random;
    private int[] hashes;
    private long nextId = 1;
    private ReshardState pState;
    private TreeMap<Long, Integer> pLayouts;
    private final Map<Long, Integer> everyLayout = new HashMap<>();
    private boolean pCompleting;
    /** An operator's change read earlier and not written yet (written at the next operator step, if still valid). */
    private Reshard pendingOperator;
    private ReshardStore.Expected pendingRead;
    private long producerEpoch;
    private int producerShards;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void perKeyOrderHoldsAndNothingIsLostAcrossChangesRollbacksAndLeaderChanges(long seed) {
        random = new Random(seed);
        int n = 1 + random.nextInt(8);
        hashes = random.ints(40, 0, Integer.MAX_VALUE).toArray();
        pState = ReshardState.STABLE;
        pLayouts = new TreeMap<>(Map.of(1L, n));
        producerEpoch = 1;
        producerShards = n;
        int groupCount = 1 + random.nextInt(3);
        for (int g = 0; g < groupCount; g++) {
            managed.put("g" + g, n);
            groups.put("g" + g, new HashMap<>());
            handled.put("g" + g, new HashMap<>());
            for (int i = 0; i < n; i++) {
                groups.get("g" + g).put(i, new GroupOnShard());
            }
        }
        Reshard leader = rebuild();
        for (int step = 0; step < 3_000; step++) {
            int what = random.nextInt(random.nextInt(4) == 0 ? 100 : 99);
            if (what < 45) {
                produce();
            } else if (what < 80) {
                consume();
            } else if (what < 93) {
                leader = lead(leader);
            } else if (what < 99) {
                leader = rebuild();
            } else {
                operate();
                leader = rebuild();
            }
        }
        for (int step = 0; step < 100_000 && !(pState == ReshardState.STABLE && allHandled()); step++) {
            if (step % 20 != 0) {
                consume();
            } else {
                leader = lead(leader);
            }
        }
        assertThat(pState).isEqualTo(ReshardState.STABLE);
        for (String g : groups.keySet()) {
            for (int key = 0; key < hashes.length; key++) {
                assertThat(handled.get(g).getOrDefault(key, 0)).as("group %s key %d", g, key)
                        .isEqualTo(produced.getOrDefault(key, 0));
            }
        }
    }

    private Reshard rebuild() {
        return Reshard.restore("s", pState, pLayouts, pCompleting);
    }

    private void operate() {
        if (pendingOperator != null) {
            if (unchangedSince(pendingRead)) {
                persist(pendingOperator);
            }
            pendingOperator = null;
            return;
        }
        Reshard r = rebuild();
        ReshardStore.Expected read = ReshardStore.Expected.of(r);
        try {
            if (random.nextBoolean()) {
                r.start(1 + random.nextInt(10));
            } else {
                r.rollback();
            }
        } catch (ReshardRefusedException e) {
            return; // refused as the operator would be (409/400); the model goes on
        }
        if (random.nextInt(3) == 0) {
            pendingOperator = r; // read now, written later: the leader may complete the change in between
            pendingRead = read;
        } else {
            persist(r);
        }
    }

    /** The store's guard: the routing epoch, the state and the step are still the ones {@code read} saw. */
    private boolean unchangedSince(ReshardStore.Expected read) {
        return pLayouts.lastKey() == read.routingEpoch() && pState == read.state() && pCompleting == read.completing();
    }

    private void persist(Reshard r) {
        pState = r.state();
        pLayouts = new TreeMap<>(r.layouts());
        everyLayout.putAll(pLayouts);
        pCompleting = r.completing();
    }

    private Shard shard(int i) {
        return shards.computeIfAbsent(i, k -> new Shard());
    }

    private void produce() {
        int key = random.nextInt(hashes.length);
        if (random.nextInt(10) == 0) {
            producerEpoch = pLayouts.lastKey();
            producerShards = pLayouts.lastEntry().getValue();
        }
        for (int attempt = 0; attempt < 2; attempt++) {
            Shard s = shard(hashes[key] % producerShards);
            if (producerEpoch < s.epoch) {
                producerEpoch = pLayouts.lastKey();
                producerShards = pLayouts.lastEntry().getValue();
                continue;
            }
            assertThat(!s.retired || producerEpoch > s.epoch).as("a write to retired shard %d", key).isTrue();
            if (producerEpoch > s.epoch) {
                flip(s, producerEpoch);
            }
            int seq = produced.merge(key, 1, Integer::sum);
            s.entries.add(new Entry(nextId++, key, seq, producerEpoch));
            return;
        }
        throw new AssertionError("a producer was refused twice in a row under one topology");
    }

    private static void flip(Shard s, long epoch) {
        if (s.epoch < epoch) {
            s.retired = false;
            s.cutovers.put(epoch, s.last());
            s.epoch = epoch;
        }
    }

    private void consume() {
        String g = "g" + random.nextInt(groups.size());
        int i = random.nextInt(Math.max(1, managed.get(g)));
        if (!groups.get(g).containsKey(i)) {
            return;
        }
        GroupOnShard pos = groups.get(g).get(i);
        if (!pos.pending.isEmpty() && random.nextBoolean()) {
            pos.pending.remove(random.nextBoolean() ? pos.pending.firstKey() : pos.pending.lastKey());
            return;
        }
        Shard s = shard(i);
        assertThat(s.retired).as("group %s reads retired shard %d", g, i).isFalse();
        long released = s.released.getOrDefault(g, 0L);
        Map.Entry<Long, Long> bound = s.cutovers.higherEntry(released);
        if (pos.next >= s.entries.size() || (bound != null && s.entries.get(pos.next).id() > bound.getValue())) {
            return;
        }
        Entry e = s.entries.get(pos.next++);
        pos.pending.put(e.id(), e);
        int before = handled.get(g).getOrDefault(e.key(), 0);
        assertThat(e.seq()).as("group %s key %d: order", g, e.key()).isEqualTo(before + 1);
        handled.get(g).put(e.key(), e.seq());
    }

    private Progress observe() {
        SortedMap<Integer, Progress.Routing> routing = new TreeMap<>();
        shards.forEach((i, s) -> {
            SortedMap<Long, String> cut = new TreeMap<>();
            s.cutovers.forEach((e, id) -> cut.put(e, id + "-0"));
            routing.put(i, new Progress.Routing(s.epoch, cut, s.released));
        });
        Map<String, Map<Integer, Progress.Position>> positions = new HashMap<>();
        groups.forEach((g, on) -> {
            Map<Integer, Progress.Position> at = new HashMap<>();
            on.forEach((i, pos) -> {
                Shard s = shard(i);
                long last = pos.next == 0 ? 0 : s.entries.get(pos.next - 1).id();
                at.put(i, new Progress.Position(last + "-0",
                        pos.pending.isEmpty() ? null : pos.pending.firstKey() + "-0"));
            });
            positions.put(g, at);
        });
        return new Progress(new TreeMap<>(managed), routing, positions);
    }

    private Reshard lead(Reshard leader) {
        ReshardStore.Expected read = ReshardStore.Expected.of(leader);
        List<Decision> decisions = leader.decide(observe());
        int done = random.nextInt(8) == 0 ? random.nextInt(decisions.size() + 1) : decisions.size();
        for (Decision d : decisions.subList(0, done)) {
            if (!apply(d, leader, read)) {
                return rebuild();
            }
        }
        return done < decisions.size() ? rebuild() : leader;
    }

    /** Carries {@code d} out; false when the topology changed under the leader (its write is refused). */
    private boolean apply(Decision d, Reshard leader, ReshardStore.Expected read) {
        if (d instanceof Decision.Persist && !unchangedSince(read.withCompleting(false))
                || d instanceof Decision.Complete && !unchangedSince(read.withCompleting(true))) {
            return false;
        }
        if (d instanceof Decision.Persist) {
            // the change as read, completing (the leader's machine is STABLE already: decide() ran to the end)
            persist(Reshard.restore("s", read.state(), pLayouts, true));
        } else if (d instanceof Decision.Flip f) {
            flip(shard(f.shard()), f.epoch());
        } else if (d instanceof Decision.CreateGroup c) {
            groups.get(c.group()).putIfAbsent(c.shard(), new GroupOnShard());
        } else if (d instanceof Decision.Resize r) {
            managed.put(r.group(), r.shards());
        } else if (d instanceof Decision.Release r) {
            release(r);
        } else if (d instanceof Decision.Retire r) {
            retire(r.shard());
        } else if (d instanceof Decision.Complete c) {
            for (int i = 0; i < c.shards(); i++) {
                Shard s = shard(i);
                s.cutovers.clear();
                s.released.clear();
            }
            pState = ReshardState.STABLE;
            pLayouts = new TreeMap<>(Map.of(c.epoch(), c.shards()));
            pCompleting = false;
        }
        return true;
    }

    private void retire(int shard) {
        Shard s = shard(shard);
        for (Map<Integer, GroupOnShard> on : groups.values()) {
            GroupOnShard pos = on.remove(shard);
            assertThat(pos == null ? s.entries.isEmpty() : pos.next == s.entries.size() && pos.pending.isEmpty())
                    .as("shard %d retired with entries a group did not acknowledge", shard).isTrue();
        }
        s.entries.clear();
        s.cutovers.clear();
        s.released.clear();
        s.retired = true;
    }

    /**
     * Every record of the keys routed to the released shard under that epoch, from earlier epochs, on another shard
     * is acknowledged. Those on the released shard itself lie before its cutover, and a shard is read in order: they
     * need not be (a shard whose only parent is itself is released before anything is read).
     */
    private void release(Decision.Release r) {
        int count = everyLayout.get(r.epoch());
        for (Map.Entry<Integer, Shard> s : shards.entrySet()) {
            if (s.getKey() == r.shard()) {
                continue;
            }
            GroupOnShard pos = groups.get(r.group()).get(s.getKey());
            for (int k = 0; k < s.getValue().entries.size(); k++) {
                Entry e = s.getValue().entries.get(k);
                if (e.epoch() < r.epoch() && hashes[e.key()] % count == r.shard()) {
                    boolean acked = pos != null && k < pos.next && !pos.pending.containsKey(e.id());
                    assertThat(acked).as("release of %s shard %d epoch %d before entry %s of shard %d is acknowledged",
                            r.group(), r.shard(), r.epoch(), e, s.getKey()).isTrue();
                }
            }
        }
        shard(r.shard()).released.merge(r.group(), r.epoch(), Math::max);
    }

    private boolean allHandled() {
        for (String g : groups.keySet()) {
            for (int key = 0; key < hashes.length; key++) {
                if (handled.get(g).getOrDefault(key, 0) < produced.getOrDefault(key, 0)) {
                    return false;
                }
            }
            if (groups.get(g).values().stream().anyMatch(p -> !p.pending.isEmpty())) {
                return false;
            }
        }
        return true;
    }
}
