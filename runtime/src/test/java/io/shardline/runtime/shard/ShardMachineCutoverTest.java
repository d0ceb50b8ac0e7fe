package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MachineHarness.records;
import static io.shardline.runtime.shard.MachineHarness.settings;
import static io.shardline.runtime.shard.MachineHarness.shard;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The {@link ShardMachine}'s cutover edges ({@code READING -> AT_CUTOVER -> READING}, and out of {@code AT_CUTOVER}
 * by release, fencing, pause and lease lapse), without Redis or Vert.x: Redis's "waits at the cutover of epoch E"
 * answer is a {@link ShardCommands.ReadResult} with a waiting epoch; the driver's poll of the routing hash is
 * {@link ShardAction.PollCutover}, answered with {@code cutoverPolled}. See docs/protocol.md section 8b.
 */
class ShardMachineCutoverTest {

    private static final ShardId S = shard(0);
    private static final long POLL = ConsumerSettings.DEFAULT_CUTOVER_POLL_MS;

    private final MachineHarness h = new MachineHarness(settings(2, 10, 100));
    private final ShardMachine m = h.machine;

    @Test
    void readingStopsAtTheCutoverPollsAndReadsAgainOnceReleased() {
        OwnedShard s = reading(S);
        assertThat(m.readDone(s, false, waiting("3-0", 2))).containsExactly(new ShardAction.Unwatch(S));
        assertThat(state(s)).isEqualTo("AT_CUTOVER/WAITING");
        assertThat(m.view()).containsEntry(S, ShardPhase.AT_CUTOVER);
        assertThat(m.atCutover()).isEqualTo(Map.of(S, 2L));
        assertThat(h.advance(POLL - 1)).isEmpty();
        assertThat(h.advance(1)).containsExactly(new ShardAction.PollCutover(s, 2));
        assertThat(state(s)).isEqualTo("AT_CUTOVER/STEPPING");
        assertThat(m.cutoverPolled(s, false)).isEmpty();
        assertThat(state(s)).isEqualTo("AT_CUTOVER/WAITING");
        assertThat(h.advance(POLL)).containsExactly(new ShardAction.PollCutover(s, 2));
        assertThat(m.cutoverPolled(s, true)).containsExactly(new ShardAction.Read(s, ">", false));
        assertThat(state(s)).isEqualTo("READING/STEPPING");
        assertThat(m.atCutover()).isEmpty();
        assertThat(m.view()).containsEntry(S, ShardPhase.READING);
    }

    @Test
    void anAckAndReadAnsweringWaitingStopsAfterTheLastBatchIsAcknowledged() {
        OwnedShard s = reading(S);
        List<StreamRecord> batch = records(S, 1, 10);
        m.readDone(s, false, new ShardCommands.ReadResult("10-0", batch));
        assertThat(m.handled(s, batch, 0, null)).containsExactly(new ShardAction.AckAndRead(s, ids(batch), false));
        assertThat(m.ackAndReadDone(s, waiting("10-0", 3))).containsExactly(new ShardAction.Unwatch(S));
        assertThat(state(s)).isEqualTo("AT_CUTOVER/WAITING");
        assertThat(s.batch).isNull();
        assertThat(s.unacked).isEmpty();
        assertThat(h.advance(POLL)).containsExactly(new ShardAction.PollCutover(s, 3));
    }

    @Test
    void theLeadersReleaseHintPollsAWaitingShardOfTheStreamAtOnce() {
        OwnedShard s = waitingAtCutover(S);
        assertThat(m.barrierReleased("other")).as("another stream's hint").isEmpty();
        assertThat(m.barrierReleased(S.stream())).containsExactly(new ShardAction.PollCutover(s, 2));
        assertThat(h.timers.pending()).as("its timed poll cancelled").isEmpty();
        assertThat(m.barrierReleased(S.stream())).as("a poll in flight: nothing more").isEmpty();
        assertThat(m.cutoverPolled(s, true)).containsExactly(new ShardAction.Read(s, ">", false));
    }

    @Test
    void aWatchedParentReportsOnceWhenItsAcknowledgementReachesTheCutover() {
        OwnedShard s = reading(S);
        assertThat(m.watchDrain(S.stream(), Map.of(0, "15-0"))).as("nothing acknowledged yet").isEmpty();
        List<StreamRecord> first = records(S, 1, 10);
        m.readDone(s, false, new ShardCommands.ReadResult("10-0", first));
        m.handled(s, first, 0, null);
        assertThat(m.ackAndReadDone(s, new ShardCommands.ReadResult("10-0", records(S, 11, 20))))
                .as("acknowledged up to 10-0, below the cutover").doesNotHaveAnyElementsOfTypes(ShardAction.Drained.class);
        List<StreamRecord> second = records(S, 11, 20);
        m.handled(s, second, 0, null);
        assertThat(m.ackAndReadDone(s, new ShardCommands.ReadResult("20-0", List.of())))
                .contains(new ShardAction.Drained(s));
        assertThat(m.watchDrain(S.stream(), Map.of(0, "15-0"))).as("watched again, past it already")
                .containsExactly(new ShardAction.Drained(s));
        assertThat(m.watchDrain(S.stream(), Map.of(1, "15-0"))).as("another shard watched").isEmpty();
    }

    @Test
    void releaseWhileWaitingIsImmediateAndCancelsThePoll() {
        OwnedShard s = waitingAtCutover(S);
        assertThat(m.release(S)).containsExactly(new ShardAction.Unwatch(S), new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("RELEASED/DONE");
        assertThat(h.timers.pending()).isEmpty();
    }

    @Test
    void releaseWhileAPollIsInFlightCompletesWhenItReturns() {
        OwnedShard s = waitingAtCutover(S);
        h.advance(POLL);
        assertThat(m.release(S)).containsExactly(new ShardAction.Unwatch(S));
        assertThat(state(s)).isEqualTo("RELEASING/STEPPING");
        assertThat(m.cutoverPolled(s, true)).containsExactly(new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("RELEASED/DONE");
    }

    @Test
    void fencingWhileWaitingStopsTheShard() {
        OwnedShard s = waitingAtCutover(S);
        List<ShardAction> actions = m.fenceAll();
        assertThat(actions).contains(new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("FENCED/DONE");
        assertThat(h.timers.pending()).isEmpty();
    }

    @Test
    void aPausedWaitingShardDoesNotPollUntilResumed() {
        OwnedShard s = waitingAtCutover(S);
        assertThat(m.pause(S)).containsExactly(new ShardAction.Unwatch(S));
        assertThat(h.advance(POLL * 3)).isEmpty();
        assertThat(state(s)).isEqualTo("AT_CUTOVER/PARKED");
        assertThat(m.resume(S)).containsExactly(new ShardAction.PollCutover(s, 2));
    }

    @Test
    void aFailedPollBacksOffAndPollsAgain() {
        OwnedShard s = waitingAtCutover(S);
        h.advance(POLL);
        assertThat(m.redisFailed(s, new RuntimeException("timeout"), false)).isEmpty();
        assertThat(state(s)).isEqualTo("AT_CUTOVER/WAITING");
        assertThat(h.advance(10)).containsExactly(new ShardAction.PollCutover(s, 2));
    }

    @Test
    void aLapsedLeaseStopsThePollsUntilItIsValidAgain() {
        OwnedShard s = waitingAtCutover(S);
        h.lease.extendTo(h.timers.nowMs());
        assertThat(h.advance(POLL)).isEmpty();
        assertThat(state(s)).isEqualTo("AT_CUTOVER/WAITING");
        h.lease.extendTo(Long.MAX_VALUE);
        assertThat(h.advance(ShardOutcomes.LEASE_RECHECK_MS)).containsExactly(new ShardAction.PollCutover(s, 2));
    }

    @Test
    void aWakeUpWhileWaitingChangesNothing() {
        OwnedShard s = waitingAtCutover(S);
        assertThat(m.woken(S)).isEmpty();
        assertThat(s.rereadOnEmpty).isFalse();
        h.advance(POLL);
        assertThat(m.cutoverPolled(s, true)).containsExactly(new ShardAction.Read(s, ">", false));
    }

    @Test
    void aStackedChangeWaitsAtEachCutoverInTurn() {
        OwnedShard s = waitingAtCutover(S);
        h.advance(POLL);
        assertThat(m.cutoverPolled(s, true)).containsExactly(new ShardAction.Read(s, ">", false));
        List<StreamRecord> between = records(S, 4, 1); // up to cutover:3
        assertThat(m.readDone(s, false, new ShardCommands.ReadResult("4-0", between)))
                .containsExactly(new ShardAction.Handle(s, between));
        assertThat(m.handled(s, between, 0, null)).containsExactly(new ShardAction.Watch(S, "4-0")); // lingers its ack
        assertThat(m.woken(S)).containsExactly(new ShardAction.AckAndRead(s, ids(between), true));
        assertThat(m.ackAndReadDone(s, waiting("4-0", 3))).containsExactly(new ShardAction.Unwatch(S));
        assertThat(m.atCutover()).isEqualTo(Map.of(S, 3L));
    }

    private OwnedShard waitingAtCutover(ShardId shard) {
        OwnedShard s = reading(shard);
        m.readDone(s, false, waiting("3-0", 2));
        assertThat(state(s)).isEqualTo("AT_CUTOVER/WAITING");
        return s;
    }

    private static ShardCommands.ReadResult waiting(String lastDelivered, long epoch) {
        return new ShardCommands.ReadResult(lastDelivered, List.of(), epoch);
    }

    /** A shard through takeover and an empty replay, its first read of new entries in flight. */
    private OwnedShard reading(ShardId shard) {
        List<ShardAction> actions = m.acquire(shard, 1);
        OwnedShard s = ((ShardAction.Assign) actions.get(0)).shard();
        m.assigned(s);
        m.takeoverDone(s, new ShardCommands.TakeoverPage("0-0", 0));
        m.readDone(s, true, new ShardCommands.ReadResult("", List.of()));
        assertThat(state(s)).isEqualTo("READING/STEPPING");
        return s;
    }

    private static String state(OwnedShard s) {
        return s.phase() + "/" + s.activity();
    }

    private static List<String> ids(List<StreamRecord> records) {
        return records.stream().map(StreamRecord::entryId).toList();
    }
}
