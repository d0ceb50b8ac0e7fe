package io.shardline.runtime.reshard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Every edge of {@link Reshard}'s lifecycle and the barrier rule, one test each. */
class ReshardTest {

    private static Progress progress(Map<String, Integer> groups, Map<Integer, Progress.Routing> routing,
                                     Map<String, Map<Integer, Progress.Position>> positions) {
        return new Progress(new TreeMap<>(groups), new TreeMap<>(routing), positions);
    }

    private static Progress.Routing flipped(long epoch, String cutover, Map<String, Long> released) {
        return new Progress.Routing(epoch, new TreeMap<>(Map.of(epoch, cutover)), released);
    }

    @Test
    void parentsFollowTheGcdRule() {
        assertThat(Barriers.parents(5, 16, 32)).containsExactly(5);
        assertThat(Barriers.parents(21, 16, 32)).containsExactly(5);
        assertThat(Barriers.parents(3, 32, 12)).containsExactly(3, 7, 11, 15, 19, 23, 27, 31);
        assertThat(Barriers.parents(2, 7, 5)).containsExactly(0, 1, 2, 3, 4, 5, 6);
    }

    @Test
    void stableToReshardingRaisesTheEpoch() {
        Reshard r = Reshard.stable("orders", 1, 16);
        r.start(32);
        assertThat(r.state()).isEqualTo(ReshardState.RESHARDING);
        assertThat(r.epoch()).isEqualTo(2);
        assertThat(r.shards()).isEqualTo(32);
        assertThat(r.fromShards()).isEqualTo(16);
    }

    @Test
    void aSecondChangeWhileReshardingIsRefused() {
        Reshard r = Reshard.stable("orders", 1, 16);
        r.start(32);
        assertThatThrownBy(() -> r.start(8)).isInstanceOf(ReshardRefusedException.class)
                .hasMessageContaining("already changing from 16 to 32").hasMessageContaining("streams rollback orders");
    }

    @Test
    void anUnchangedOrBadCountIsRefused() {
        Reshard r = Reshard.stable("orders", 1, 16);
        assertThatThrownBy(() -> r.start(16)).isInstanceOf(ReshardRefusedException.class)
                .matches(e -> ((ReshardRefusedException) e).reason() == ReshardRefusedException.Reason.CONFLICT);
        assertThatThrownBy(() -> r.start(0)).isInstanceOf(ReshardRefusedException.class)
                .matches(e -> ((ReshardRefusedException) e).reason() == ReshardRefusedException.Reason.BAD_COUNT);
        assertThat(r.state()).isEqualTo(ReshardState.STABLE);
    }

    @Test
    void rollbackGoesBackToTheCountBeforeUnderANewEpoch() {
        Reshard r = Reshard.stable("orders", 4, 16);
        r.start(32);
        r.rollback();
        assertThat(r.state()).isEqualTo(ReshardState.ROLLING_BACK);
        assertThat(r.epoch()).isEqualTo(6);
        assertThat(r.shards()).isEqualTo(16);
        assertThat(r.layouts()).containsExactly(Map.entry(4L, 16), Map.entry(5L, 32), Map.entry(6L, 16));
    }

    @Test
    void rollbackOfAStableStreamOrOfARollbackIsRefused() {
        Reshard r = Reshard.stable("orders", 1, 16);
        assertThatThrownBy(r::rollback).hasMessageContaining("no change to roll back");
        r.start(32);
        r.rollback();
        assertThatThrownBy(r::rollback).hasMessageContaining("already rolling back to 16");
    }

    @Test
    void aChangeDuringARollbackIsAnotherEpochOfTheChain() {
        Reshard r = Reshard.stable("orders", 1, 16);
        r.start(32);
        r.rollback();
        r.start(8);
        assertThat(r.state()).isEqualTo(ReshardState.RESHARDING);
        assertThat(r.layouts()).containsExactly(Map.entry(1L, 16), Map.entry(2L, 32), Map.entry(3L, 16),
                Map.entry(4L, 8));
        assertThat(r.maxShards()).isEqualTo(32);
        r.rollback();
        assertThat(r.shards()).isEqualTo(16);
    }

    @Test
    void aStableStreamDecidesNothing() {
        assertThat(Reshard.stable("s", 1, 2).decide(progress(Map.of("g", 2), Map.of(), Map.of()))).isEmpty();
    }

    @Test
    void aGrowthFirstGrowsTheGroupAndCreatesItOnNewShardsFlippingOnlyTheNewShards() {
        Reshard r = Reshard.stable("s", 1, 2);
        r.start(4);
        List<Decision> d = r.decide(progress(Map.of("g", 2), Map.of(), Map.of("g", Map.of(
                0, new Progress.Position("0-0", null), 1, new Progress.Position("0-0", null)))));
        assertThat(d).containsExactly(new Decision.Release("g", 0, 2), new Decision.Release("g", 1, 2),
                new Decision.Flip(2, 2), new Decision.Flip(3, 2), new Decision.Resize("g", 4, false),
                new Decision.CreateGroup("g", 2), new Decision.CreateGroup("g", 3));
    }

    @Test
    void theShardsProducersWriteToAreFlippedOnceEveryGroupOwnsItsGrownShardSet() {
        Reshard r = Reshard.stable("s", 1, 2);
        r.start(4);
        Progress.Routing released = new Progress.Routing(1, new TreeMap<>(), Map.of("g", 2L)); // its only parent: itself
        Map<Integer, Progress.Routing> routing = Map.of(0, released, 1, released, 2, flipped(2, "0-0", Map.of()),
                3, flipped(2, "0-0", Map.of()));
        Map<String, Map<Integer, Progress.Position>> at = Map.of("g", Map.of(0, new Progress.Position("0-0", null),
                1, new Progress.Position("0-0", null), 2, new Progress.Position("0-0", null),
                3, new Progress.Position("0-0", null)));
        Progress takingUp = new Progress(new TreeMap<>(Map.of("g", 4)), new TreeMap<>(routing), at,
                new java.util.TreeSet<>(List.of("g")));
        assertThat(r.decide(takingUp)).as("the members are still taking up shards 2 and 3").isEmpty();

        assertThat(r.decide(progress(Map.of("g", 4), routing, at))).containsExactly(new Decision.Flip(0, 2),
                new Decision.Flip(1, 2));
    }

    @Test
    void aGrowthWhoseCutoverBeganIsNotHeld() {
        Reshard r = Reshard.stable("s", 1, 2);
        r.start(4);
        Progress p = new Progress(new TreeMap<>(Map.of("g", 4)), new TreeMap<>(Map.of(1, flipped(2, "0-0", Map.of()))),
                Map.of("g", Map.of(0, new Progress.Position("0-0", null), 1, new Progress.Position("0-0", null),
                        2, new Progress.Position("0-0", null), 3, new Progress.Position("0-0", null))),
                new java.util.TreeSet<>(List.of("g")));
        assertThat(r.decide(p)).as("a producer of the new layout flipped shard 1 already").contains(
                new Decision.Flip(0, 2), new Decision.Flip(2, 2), new Decision.Flip(3, 2));
    }

    @Test
    void aShardWhoseOnlyParentIsItselfIsReleasedBeforeItsFlipWithEntriesUnread() {
        Reshard r = Reshard.stable("s", 1, 16);
        r.start(32);
        Map<Integer, Progress.Position> at = new HashMap<>();
        for (int i = 0; i < 16; i++) {
            at.put(i, new Progress.Position("0-0", "1-" + i)); // behind, with entries pending
        }
        List<Decision> d = r.decide(progress(Map.of("g", 32), Map.of(), Map.of("g", at)));
        for (int i = 0; i < 16; i++) {
            assertThat(d.indexOf(new Decision.Release("g", i, 2))).as("shard %d released before any flip", i)
                    .isGreaterThanOrEqualTo(0).isLessThan(d.indexOf(new Decision.Flip(0, 2)));
        }
        assertThat(d).as("a new shard waits for its parent").doesNotContain(new Decision.Release("g", 16, 2));
    }

    @Test
    void aShardWaitsForItsOtherParentsButNeverForItself() {
        Reshard r = Reshard.stable("s", 1, 4);
        r.start(2);
        Map<Integer, Progress.Routing> routing = new HashMap<>();
        Map<Integer, Progress.Position> at = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            routing.put(i, flipped(2, "5-" + i, Map.of()));
            // shards 0 and 3 are behind their cutovers; 1 and 2 are drained
            at.put(i, new Progress.Position(i == 0 || i == 3 ? "4-0" : "5-" + i, null));
        }
        List<Decision> d = r.decide(progress(Map.of("g", 4), routing, Map.of("g", at)));
        assertThat(d).as("shard 0 (parents 0 and 2) waits for nothing but 2; shard 1 (parents 1 and 3) for 3")
                .contains(new Decision.Release("g", 0, 2)).doesNotContain(new Decision.Release("g", 1, 2));
        assertThat(r.waits(progress(Map.of("g", 4), routing, Map.of("g", at)), "g", 1))
                .contains(Map.entry(2L, List.of(3)));
    }

    @Test
    void aRollbackReleasesAShardOnlyAfterTheOtherParentsPassedTheirEarlierBarrier() {
        // 2 -> 4 (epoch 2), rolled back to 2 (epoch 3). Shard 0 passed epoch 2 at once (its only parent was itself);
        // at epoch 3 its keys come from 0 and 2, and 2's keys of epoch 1 lie on 0 before its cutover of 2.
        Reshard r = Reshard.restore("s", ReshardState.ROLLING_BACK, new TreeMap<>(Map.of(1L, 2, 2L, 4, 3L, 2)),
                false);
        Map<Integer, Progress.Routing> routing = new HashMap<>();
        Map<Integer, Progress.Position> at = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            routing.put(i, new Progress.Routing(3, new TreeMap<>(Map.of(2L, "5-" + i, 3L, "9-" + i)),
                    i < 2 ? Map.of("g", 2L) : Map.of()));
            at.put(i, new Progress.Position(i == 0 ? "4-0" : "9-" + i, null));
        }
        Progress p = progress(Map.of("g", 4), routing, Map.of("g", at));
        assertThat(r.decide(p)).as("shard 2 waits for 0's drain to its cutover of epoch 2, so 0 waits at epoch 3")
                .doesNotContain(new Decision.Release("g", 0, 3), new Decision.Release("g", 2, 2));
        assertThat(r.waits(p, "g", 0)).contains(Map.entry(3L, List.of(2)));
    }

    @Test
    void aBarrierIsReleasedOnlyWhenEveryParentIsDrainedToItsCutover() {
        Reshard r = Reshard.stable("s", 1, 2);
        r.start(4);
        Map<Integer, Progress.Routing> routing = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            routing.put(i, flipped(2, i < 2 ? "10-" + i : "0-0", Map.of()));
        }
        Map<Integer, Progress.Position> at = new HashMap<>(Map.of(0, new Progress.Position("10-0", null),
                1, new Progress.Position("10-1", "10-1"), 2, new Progress.Position("0-0", null),
                3, new Progress.Position("0-0", null)));
        List<Decision> d = r.decide(progress(Map.of("g", 4), routing, Map.of("g", at)));
        assertThat(d).as("shard 1 waits for nothing but itself").containsExactly(new Decision.Release("g", 0, 2),
                new Decision.Release("g", 1, 2), new Decision.Release("g", 2, 2));
        assertThat(r.waits(progress(Map.of("g", 4), routing, Map.of("g", at)), "g", 3))
                .contains(Map.entry(2L, List.of(1)));
    }

    @Test
    void theChangeCompletesWhenEveryBarrierPassedAndRetiresTheShardsLeftOut() {
        Reshard r = Reshard.stable("s", 1, 4);
        r.start(2);
        Map<Integer, Progress.Routing> routing = new HashMap<>();
        Map<Integer, Progress.Position> at = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            routing.put(i, flipped(2, "5-" + i, i < 2 ? Map.of("g", 2L) : Map.of()));
            at.put(i, new Progress.Position("5-" + i, null));
        }
        List<Decision> d = r.decide(progress(Map.of("g", 4), routing, Map.of("g", at)));
        assertThat(d).containsExactly(new Decision.Release("g", 2, 2), new Decision.Release("g", 3, 2),
                new Decision.Persist(), new Decision.Resize("g", 2, false),
                new Decision.Retire(2), new Decision.Retire(3), new Decision.Complete(2, 2));
        assertThat(r.state()).isEqualTo(ReshardState.STABLE);
        assertThat(r.layouts()).containsExactly(Map.entry(2L, 2));
    }

    @Test
    void aShardLeftOutIsNotRetiredWhileAGroupHasEntriesThere() {
        Reshard r = Reshard.stable("s", 1, 4);
        r.start(2);
        Map<Integer, Progress.Routing> routing = new HashMap<>();
        Map<Integer, Progress.Position> at = new HashMap<>();
        for (int i = 0; i < 4; i++) {
            routing.put(i, flipped(2, "5-" + i, i < 2 ? Map.of("g", 2L) : Map.of()));
            at.put(i, new Progress.Position("5-" + i, i == 3 ? "5-3" : null));
        }
        assertThat(r.decide(progress(Map.of("g", 4), routing, Map.of("g", at))))
                .noneMatch(d -> d instanceof Decision.Retire || d instanceof Decision.Complete);
        assertThat(r.state()).isEqualTo(ReshardState.RESHARDING);
    }

    @Test
    void aLeaderThatTakesOverWhileCompletingFinishesWithoutCheckingAgain() {
        Reshard r = Reshard.restore("s", ReshardState.ROLLING_BACK, new TreeMap<>(Map.of(1L, 2, 2L, 4, 3L, 2)), true);
        assertThatThrownBy(r::rollback).hasMessageContaining("completing");
        List<Decision> d = r.decide(progress(Map.of("g", 4), Map.of(), Map.of()));
        assertThat(d).containsExactly(new Decision.Resize("g", 2, true), new Decision.Retire(2),
                new Decision.Retire(3), new Decision.Complete(3, 2));
    }

    @Test
    void aShardFlippedPastAnEpochUsesTheNextCutover() {
        Progress.Routing routing = new Progress.Routing(3, new TreeMap<>(Map.of(3L, "7-0")), Map.of());
        assertThat(routing.cutoverFor(2)).contains("7-0");
        assertThat(routing.cutoverFor(4)).isEmpty();
        assertThat(Progress.Routing.NONE.cutoverFor(2)).isEmpty();
    }
}
