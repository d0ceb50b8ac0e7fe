package io.shardline.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.chaos.verifying.HandlingLine;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The checker on small synthetic histories: a clean run passes, and each kind of violation is caught. */
class CheckerTest {

    private static final long SESSION_MS = 3_000;

    /** A synthetic run: shard 0 owned by A (epoch 1) then B (epoch 2) after A's worker w1 was killed at 1000. */
    private final List<Produced> produced = new ArrayList<>();
    private final List<HandlingLine> handlings = new ArrayList<>();
    private final List<FaultEvent> faults = new ArrayList<>();
    private final Map<String, Long> calls = new HashMap<>();
    private final Set<EntryId> pending = new HashSet<>();
    private EntryId lastDelivered;
    private long deadLettered;

    private void produce(int n) {
        for (int i = 1; i <= n; i++) {
            produced.add(new Produced(0, i, new EntryId(i, 0), i));
            lastDelivered = new EntryId(i, 0);
        }
    }

    /** One handler call of one record, ready when it started (a dispatch window of zero width). */
    private void handle(int seq, String member, long epoch, long startMs, long endMs) {
        long batch = calls.merge(member, 1L, Long::sum);
        handlings.add(new HandlingLine("chaos", "chaos", 0, seq + "-0", seq, member, epoch, startMs, endMs, 1,
                batch, startMs));
    }

    /** One handler call of {@code seqs}, 1 ms each from {@code startMs}; the shard was ready for it at {@code readyMs}. */
    private void call(String member, long epoch, long readyMs, long startMs, int... seqs) {
        long batch = calls.merge(member, 1L, Long::sum);
        for (int i = 0; i < seqs.length; i++) {
            handlings.add(new HandlingLine("chaos", "chaos", 0, entryId(seqs[i]), seqs[i], member, epoch, startMs + i,
                    startMs + i + 1, 1, batch, readyMs));
        }
    }

    /** One handling logged in the first format, which names neither its call nor its ready time. */
    private void handleUnbatched(int seq, String member, long epoch, long startMs, long endMs) {
        handlings.add(new HandlingLine("chaos", "chaos", 0, entryId(seq), seq, member, epoch, startMs, endMs, 1));
    }

    private String entryId(int seq) {
        return produced.stream().filter(p -> p.seq() == seq).findFirst().orElseThrow().entryId().toString();
    }

    private History history() {
        List<EntryId> entries = produced.stream().map(Produced::entryId).toList();
        Map<Integer, ShardState> shards = new TreeMap<>(Map.of(0, new ShardState(0, entries, pending, lastDelivered)));
        return new History("chaos", produced, Set.of(), handlings, faults, shards, deadLettered, 10, SESSION_MS);
    }

    /** A valid failover: A handles 1..3, w1 is killed at 1000 (3 in flight, unlogged), B takes over at 2500. */
    private void cleanFailover() {
        produce(6);
        handle(1, "w1-chaos-m0", 1, 100, 101);
        handle(2, "w1-chaos-m0", 1, 200, 201);
        faults.add(new FaultEvent(FaultKind.KILL_WORKER, "w1", 1_000, 1_500));
        handle(3, "w2-chaos-m0", 2, 2_500, 2_501);
        handle(4, "w2-chaos-m0", 2, 2_600, 2_601);
        handle(5, "w2-chaos-m0", 2, 2_700, 2_701);
        handle(6, "w2-chaos-m0", 2, 2_800, 2_801);
    }

    @Test
    void aCleanFailoverIsValidAndTimed() {
        cleanFailover();

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).isEmpty();
        assertThat(report.count("lost")).isZero();
        assertThat(report.timing("failover.kill")).isEqualTo(new Distribution(1, 1_500, 1_500, 1_500));
    }

    @Test
    void detectsALostRecord() {
        cleanFailover();
        handlings.removeIf(h -> h.seq() == 4);
        pending.add(new EntryId(4, 0));

        CheckReport report = Checker.check(history());

        assertThat(report.count("lost")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("lost records") && v.contains("seq 4"));
    }

    @Test
    void detectsAnAckWithoutHandling() {
        cleanFailover();
        handlings.removeIf(h -> h.seq() == 5);

        CheckReport report = Checker.check(history());

        assertThat(report.count("acked.not.handled")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("records acknowledged but never handled"));
    }

    @Test
    void detectsOverlappingOwnersThatNoPauseExplains() {
        cleanFailover();
        handle(7, "w1-chaos-m0", 1, 900, 2_550); // A still handling when B started at 2500, and A was not paused
        produced.add(new Produced(0, 7, new EntryId(7, 0), 7));

        CheckReport report = Checker.check(history());

        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("split ownership"));
    }

    @Test
    void toleratesAHandlingCaughtInFlightByASigstop() {
        produce(3);
        handle(1, "w1-chaos-m0", 1, 100, 101);
        faults.add(new FaultEvent(FaultKind.PAUSE_WORKER, "w1", 150, 4_650));
        handle(2, "w1-chaos-m0", 1, 140, 4_660); // stopped mid-handle; its ack is refused, B handles 2 again
        handle(2, "w2-chaos-m0", 2, 3_200, 3_201);
        handle(3, "w2-chaos-m0", 2, 3_300, 3_301);

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).isEmpty();
        assertThat(report.count("paused.in.flight")).isEqualTo(1);
        assertThat(report.count("duplicates")).isEqualTo(1);
    }

    @Test
    void detectsAStaleOwnerStartingWorkAfterItsSuccessor() {
        cleanFailover();
        handlings.removeIf(h -> h.seq() == 6);
        handle(6, "w1-chaos-m0", 1, 2_900, 2_901); // epoch 1 starts after epoch 2 did

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).anyMatch(v -> v.startsWith("split ownership") && v.contains("after epoch 2"));
    }

    /**
     * The shard-19 case of the 50-kill run: w2 passed its lease check for the call of 4 and 5, was stopped before
     * the handler's first line, and ran the call after SIGCONT, after w3 (epoch 2) had handled 4 and 5.
     */
    private void callCaughtBetweenLeaseCheckAndHandler(long pauseStartMs, long stoppedByMs, long pauseEndMs) {
        produce(5);
        call("w2-chaos-m0", 1, 50, 100, 1, 2);
        call("w2-chaos-m0", 1, 103, 200, 3); // returns at 202: the shard is ready for the next call
        if (pauseStartMs >= 0) {
            faults.add(new FaultEvent(FaultKind.PAUSE_WORKER, "w2", pauseStartMs, pauseEndMs, stoppedByMs));
        }
        call("w3-chaos-m0", 2, 3_300, 3_400, 4, 5); // onAssigned returned at 3300
        call("w2-chaos-m0", 1, 202, 4_801, 4, 5); // the stale call, dispatched before the stop
    }

    @Test
    void toleratesACallASigstopCaughtBetweenItsLeaseCheckAndItsHandler() {
        callCaughtBetweenLeaseCheckAndHandler(300, 305, 4_800);

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).isEmpty();
        assertThat(report.count("split.ownership")).isZero();
        assertThat(report.count("paused.in.flight")).isEqualTo(1); // one call, not one per record
        assertThat(report.count("duplicates")).isEqualTo(2);
        assertThat(report.notes()).anyMatch(n -> n.contains("w2-chaos-m0@1 call of 2 record(s) from 4-0 (dispatched in "
                + "[202, 4801], ran until 4803) started after epoch 2, which started at 3400"));
    }

    @Test
    void aStaleStartWithNoPauseOfItsWorkerInItsDispatchWindowIsSplitOwnership() {
        callCaughtBetweenLeaseCheckAndHandler(-1, -1, -1);
        faults.add(new FaultEvent(FaultKind.PAUSE_WORKER, "w1", 300, 4_800)); // another worker's pause explains nothing

        CheckReport report = Checker.check(history());

        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.count("paused.in.flight")).isZero();
        assertThat(report.violations()).anyMatch(v -> v.startsWith("split ownership")
                && v.contains("w2-chaos-m0@1 call of 2 record(s) from 4-0") && v.contains("started after epoch 2"));
    }

    @Test
    void aPauseThatEndedBeforeThePreviousCallEndedExplainsNothing() {
        callCaughtBetweenLeaseCheckAndHandler(150, 155, 199); // the previous call returned at 202, after SIGCONT

        CheckReport report = Checker.check(history());

        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.count("paused.in.flight")).isZero();
    }

    @Test
    void aPauseThatBeganAfterTheNewOwnerTookTheShardExplainsNothing() {
        callCaughtBetweenLeaseCheckAndHandler(3_350, 3_355, 4_800); // w3's onAssigned returned at 3300

        CheckReport report = Checker.check(history());

        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.count("paused.in.flight")).isZero();
    }

    @Test
    void aStopInEffectBeforeTheCallsRecordWasWrittenExplainsNothing() {
        // session 1, before the lease gate: the record came after the stop, so the call was dispatched after SIGCONT
        produce(3);
        produced.add(new Produced(0, 4, new EntryId(310, 0), 310)); // XADD at 310 by Redis' clock
        lastDelivered = new EntryId(310, 0);
        call("w2-chaos-m0", 1, 50, 100, 1, 2);
        call("w2-chaos-m0", 1, 103, 200, 3);
        faults.add(new FaultEvent(FaultKind.PAUSE_WORKER, "w2", 300, 4_800, 305)); // kill -STOP returned at 305
        call("w3-chaos-m0", 2, 3_300, 3_400, 4);
        call("w2-chaos-m0", 1, 202, 4_801, 4);

        CheckReport report = Checker.check(history());

        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.count("paused.in.flight")).isZero();
        assertThat(report.violations()).anyMatch(v -> v.contains("(dispatched in [310, 4801]"));
    }

    @Test
    void anEpochHeldByTwoMembersIsSplitOwnershipEvenWhenAPauseExplainsTheStaleCall() {
        callCaughtBetweenLeaseCheckAndHandler(300, 305, 4_800);
        handlings.removeIf(h -> h.member().equals("w3-chaos-m0") && h.seq() == 5);
        call("w1-chaos-m0", 2, 3_300, 3_450, 5);

        CheckReport report = Checker.check(history());

        assertThat(report.count("paused.in.flight")).isEqualTo(1);
        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.contains("epoch 2 held by w3-chaos-m0 and w1-chaos-m0"));
    }

    @Test
    void anAckOfAToleratedStaleCallIsStillAStaleAck() {
        callCaughtBetweenLeaseCheckAndHandler(300, 305, 4_800);
        handlings.removeIf(h -> h.member().equals("w3-chaos-m0") && h.seq() == 5); // only the stale call handled 5,
        // yet Redis says 5 is acknowledged: the fence let the stale owner's ack through

        CheckReport report = Checker.check(history());

        assertThat(report.count("paused.in.flight")).isEqualTo(1);
        assertThat(report.count("stale.acks")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("acks accepted from a stale owner epoch")
                && v.contains("0/5-0 last handled by w2-chaos-m0@1"));
    }

    /** The same case logged in the first format (no call numbers, no ready times), as the 50-kill run did. */
    private void unbatchedCallCaughtBetweenLeaseCheckAndHandler(long pauseStartMs, long pauseEndMs) {
        produce(4);
        handleUnbatched(1, "w2-chaos-m0", 1, 100, 101);
        handleUnbatched(2, "w2-chaos-m0", 1, 200, 201);
        faults.add(new FaultEvent(FaultKind.PAUSE_WORKER, "w2", pauseStartMs, pauseEndMs));
        handleUnbatched(3, "w3-chaos-m0", 2, 3_400, 3_401);
        handleUnbatched(4, "w3-chaos-m0", 2, 3_500, 3_501);
        handleUnbatched(3, "w2-chaos-m0", 1, 4_801, 4_802); // dispatched after w2's previous line ended
    }

    @Test
    void linesWithoutCallNumbersAreDispatchedAfterTheMembersPreviousLine() {
        unbatchedCallCaughtBetweenLeaseCheckAndHandler(300, 4_800);

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).isEmpty();
        assertThat(report.count("paused.in.flight")).isEqualTo(1);
    }

    @Test
    void linesWithoutCallNumbersAndAPauseBeforeThePreviousLineEndedAreSplitOwnership() {
        unbatchedCallCaughtBetweenLeaseCheckAndHandler(150, 190);

        CheckReport report = Checker.check(history());

        assertThat(report.count("split.ownership")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.contains("(dispatched in [201, 4801]"));
    }

    @Test
    void detectsTwoMembersWithOneEpoch() {
        cleanFailover();
        handlings.removeIf(h -> h.seq() == 6);
        handle(6, "w3-chaos-m0", 2, 2_800, 2_801);

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).anyMatch(v -> v.contains("epoch 2 held by w2-chaos-m0 and w3-chaos-m0"));
    }

    @Test
    void detectsAnAckAcceptedFromAStaleEpoch() {
        cleanFailover();
        handlings.removeIf(h -> h.seq() == 6);
        handle(6, "w1-chaos-m0", 1, 950, 2_700); // only the fenced owner handled 6, it ended after epoch 2 began,
        faults.add(new FaultEvent(FaultKind.PAUSE_WORKER, "w1", 960, 2_690)); // yet Redis says 6 is acknowledged

        CheckReport report = Checker.check(history());

        assertThat(report.count("stale.acks")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("acks accepted from a stale owner epoch"));
    }

    @Test
    void detectsAnOrderViolationWithinOneEpoch() {
        cleanFailover();
        handlings.removeIf(h -> h.seq() == 5 || h.seq() == 6);
        handle(6, "w2-chaos-m0", 2, 2_700, 2_701);
        handle(5, "w2-chaos-m0", 2, 2_700, 2_701); // same millisecond, but logged after 6

        CheckReport report = Checker.check(history());

        assertThat(report.count("order.violations")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("per-shard order violations") && v.contains("5-0"));
    }

    @Test
    void detectsDuplicatesAfterAGracefulRestart() {
        produce(2);
        handle(1, "w1-chaos-m0", 1, 100, 101);
        faults.add(new FaultEvent(FaultKind.RESTART_WORKER, "w1", 200, 900));
        handle(1, "w2-chaos-m0", 2, 1_000, 1_001);
        handle(2, "w2-chaos-m0", 2, 1_100, 1_101);

        CheckReport report = Checker.check(history());

        assertThat(report.count("duplicates.graceful")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("duplicates after graceful restarts"));
    }

    @Test
    void chargesADuplicateToTheFrozenWorkerOnlyWhenItHadHandledTheRecord() {
        produce(3);
        handle(1, "w1-chaos-m0", 1, 100, 101);
        faults.add(new FaultEvent(FaultKind.PAUSE_LEADER, "w1", 1_000, 4_500, 1_010));
        handle(1, "w2-chaos-m0", 2, 5_000, 5_001); // w1's record, handled again by its successor: the pause's cost
        handle(2, "w2-chaos-m0", 2, 5_100, 5_101);
        handle(3, "w2-chaos-m0", 2, 5_200, 5_201);

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).isEmpty();
        assertThat(report.count("duplicates")).isEqualTo(1);
        assertThat(report.count("duplicates.on.other.workers")).isZero();
    }

    @Test
    void aDuplicateOfARecordAHealthyWorkerHandledIsAViolationWhateverTheBound() {
        produce(2);
        handle(1, "w2-chaos-m0", 1, 100, 101);
        faults.add(new FaultEvent(FaultKind.PAUSE_LEADER, "w1", 1_000, 4_500, 1_010));
        handle(1, "w3-chaos-m0", 2, 5_000, 5_001); // w2 had no fault: its member should have kept the shard
        handle(2, "w3-chaos-m0", 2, 5_100, 5_101);

        CheckReport report = Checker.check(history());

        assertThat(report.count("duplicates.on.other.workers")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("duplicates of records first handled on a worker "
                + "the fault did not hit") && v.contains("w2-chaos-m0@1"));
    }

    @Test
    void notesButToleratesDuplicatesWithoutAFault() {
        produce(2);
        handle(1, "w1-chaos-m0", 1, 100, 101);
        handle(1, "w1-chaos-m0", 1, 200, 201); // e.g. the ack timed out and the batch was retried
        handle(2, "w1-chaos-m0", 1, 300, 301);

        CheckReport report = Checker.check(history());

        assertThat(report.violations()).isEmpty();
        assertThat(report.count("duplicates.without.fault")).isEqualTo(1);
        assertThat(report.notes()).anyMatch(n -> n.startsWith("duplicates with no injected fault"));
    }

    @Test
    void detectsAShardThatNeverFailsOverAndDeadLetters() {
        produce(2);
        handle(1, "w1-chaos-m0", 1, 100, 101);
        faults.add(new FaultEvent(FaultKind.KILL_LEADER, "w1", 200, 300));
        handle(2, "w1-chaos-m0", 1, 400, 401); // the killed worker's epoch keeps going: nobody took over
        deadLettered = 1;

        CheckReport report = Checker.check(history());

        assertThat(report.count("failover.stuck.shards")).isEqualTo(1);
        assertThat(report.violations()).anyMatch(v -> v.startsWith("orphaned shards"))
                .anyMatch(v -> v.startsWith("dead-lettered"));
    }
}
