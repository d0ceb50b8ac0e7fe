package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MachineHarness.records;
import static io.shardline.runtime.shard.MachineHarness.settings;
import static io.shardline.runtime.shard.MachineHarness.shard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link ShardMachine}'s transitions as a shard lives them, without Redis or Vert.x: each test drives one edge of a
 * shard's life with the events its calls would return and asserts the decisions ({@link ShardAction}s) and the state.
 */
class ShardMachineTest {

    private static final ShardId S = shard(0);

    private final MachineHarness h = new MachineHarness(settings(2, 10, 100));
    private final ShardMachine m = h.machine;

    @Test
    void startingToTakingOverToReplayingToReading() {
        OwnedShard s = assign(S);
        assertThat(s.activity()).isEqualTo(ShardActivity.STARTING);
        List<ShardAction> actions = m.assigned(s);
        assertThat(actions).containsExactly(new ShardAction.Takeover(s, "0-0"));
        assertThat(state(s)).isEqualTo("TAKING_OVER/STEPPING");

        assertThat(m.takeoverDone(s, new ShardCommands.TakeoverPage("5-0", 100))).containsExactly(new ShardAction.Takeover(s, "5-0"));
        assertThat(m.takeoverDone(s, new ShardCommands.TakeoverPage("0-0", 3))).containsExactly(new ShardAction.Read(s, "0", false));
        assertThat(state(s)).isEqualTo("REPLAYING/STEPPING");

        assertThat(m.readDone(s, true, new ShardCommands.ReadResult("", List.of()))).containsExactly(new ShardAction.Read(s, ">", false));
        assertThat(state(s)).isEqualTo("READING/STEPPING");
        assertThat(m.view()).containsEntry(S, ShardPhase.READING);
    }

    @Test
    void replayHandlesOwnPendingEntriesBeforeNewOnes() {
        OwnedShard s = reading(S);
        // unknown read outcome: the reply of a read of new entries was lost
        assertThat(m.redisFailed(s, new RuntimeException("timeout"), true)).isEmpty();
        assertThat(state(s)).isEqualTo("REPLAYING/WAITING");
        assertThat(h.advance(10)).containsExactly(new ShardAction.Read(s, "0", false));
        List<StreamRecord> pending = records(S, 1, 2);
        assertThat(m.readDone(s, true, new ShardCommands.ReadResult("2-0", pending))).containsExactly(new ShardAction.Handle(s, pending));
        assertThat(state(s)).isEqualTo("REPLAYING/HANDLING");
        assertThat(m.handled(s, pending, 0, null)).containsExactly(new ShardAction.Ack(s, List.of("1-0", "2-0")));
        assertThat(m.acked(s)).containsExactly(new ShardAction.Read(s, "2-0", false));
        assertThat(m.readDone(s, true, new ShardCommands.ReadResult("", List.of()))).containsExactly(new ShardAction.Read(s, ">", false));
        assertThat(state(s)).isEqualTo("READING/STEPPING");
    }

    @Test
    void readingHandlesAcksAndReadsInOneCallThenIdles() {
        OwnedShard s = reading(S);
        List<StreamRecord> batch = records(S, 1, 10); // a full batch: not keeping up, no linger
        assertThat(m.readDone(s, false, new ShardCommands.ReadResult("10-0", batch))).containsExactly(new ShardAction.Handle(s, batch));
        assertThat(m.busyWorkers()).isEqualTo(1);
        assertThat(m.handled(s, batch, 0, null)).containsExactly(new ShardAction.AckAndRead(s, ids(batch), false));
        assertThat(m.busyWorkers()).isZero();
        assertThat(m.ackAndReadDone(s, new ShardCommands.ReadResult("10-0", List.of()))).containsExactly(new ShardAction.Watch(S, "10-0"));
        assertThat(state(s)).isEqualTo("READING/IDLE");
        assertThat(m.woken(S)).containsExactly(new ShardAction.Read(s, ">", true));
    }

    @Test
    void keepingUpShardLingersItsAckUntilTheTimer() {
        OwnedShard s = reading(S);
        List<StreamRecord> one = records(S, 1, 1);
        m.readDone(s, false, new ShardCommands.ReadResult("1-0", one));
        assertThat(m.handled(s, one, 0, null)).containsExactly(new ShardAction.Watch(S, "1-0"));
        assertThat(state(s)).isEqualTo("READING/LINGERING");
        assertThat(h.advance(99)).isEmpty();
        assertThat(h.advance(1)).containsExactly(new ShardAction.AckAndRead(s, List.of("1-0"), true));
    }

    @Test
    void lingeringShardWokenSendsItsAckWithTheRead() {
        OwnedShard s = reading(S);
        List<StreamRecord> one = records(S, 1, 1);
        m.readDone(s, false, new ShardCommands.ReadResult("1-0", one));
        m.handled(s, one, 0, null);
        assertThat(m.woken(S)).containsExactly(new ShardAction.AckAndRead(s, List.of("1-0"), true));
        assertThat(h.timers.pending()).isEmpty();
    }

    @Test
    void pausedShardSendsItsHeldAckThenParksAndResumes() {
        OwnedShard s = reading(S);
        List<StreamRecord> one = records(S, 1, 1);
        m.readDone(s, false, new ShardCommands.ReadResult("1-0", one));
        m.handled(s, one, 0, null);
        assertThat(m.pause(S)).containsExactly(new ShardAction.Unwatch(S), new ShardAction.Ack(s, List.of("1-0")));
        assertThat(m.acked(s)).isEmpty();
        assertThat(state(s)).isEqualTo("READING/PARKED");
        assertThat(m.resume(S)).containsExactly(new ShardAction.Read(s, ">", true));
    }

    @Test
    void memberPauseStopsEveryShard() {
        OwnedShard s = reading(S);
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        assertThat(m.pauseMember(true)).containsExactly(new ShardAction.Unwatch(S));
        assertThat(state(s)).isEqualTo("READING/PARKED");
        assertThat(m.pauseMember(false)).containsExactly(new ShardAction.Read(s, ">", true));
    }

    @Test
    void releaseOfAnIdleShardIsImmediate() {
        OwnedShard s = reading(S);
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        assertThat(m.release(S)).containsExactly(new ShardAction.Unwatch(S), new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("RELEASED/DONE");
        assertThat(m.view()).isEmpty();
    }

    @Test
    void releaseDrainsTheBatchInFlightThenReports() {
        OwnedShard s = reading(S);
        List<StreamRecord> batch = records(S, 1, 10);
        m.readDone(s, false, new ShardCommands.ReadResult("10-0", batch));
        assertThat(m.release(S)).containsExactly(new ShardAction.Unwatch(S));
        assertThat(state(s)).isEqualTo("RELEASING/HANDLING");
        assertThat(m.handled(s, batch, 0, null)).containsExactly(new ShardAction.Ack(s, ids(batch)));
        assertThat(m.acked(s)).containsExactly(new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("RELEASED/DONE");
    }

    @Test
    void fencedReplyStopsTheShard() {
        OwnedShard s = reading(S);
        assertThat(m.redisFailed(s, new RuntimeException("FENCED orders/0 owner B@8"), true))
                .containsExactly(new ShardAction.Unwatch(S), new ShardAction.Fenced(s, "FENCED orders/0 owner B@8"),
                        new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("FENCED/DONE");
    }

    @Test
    void selfFencingDropsTheResultOfTheCallInFlight() {
        OwnedShard s = reading(S);
        List<StreamRecord> batch = records(S, 1, 10);
        m.readDone(s, false, new ShardCommands.ReadResult("10-0", batch));
        assertThat(m.fenceAll()).contains(new ShardAction.Revoke(s));
        assertThat(state(s)).isEqualTo("FENCED/HANDLING");
        assertThat(m.handled(s, batch, 0, null)).isEmpty(); // no ack after fencing
        assertThat(state(s)).isEqualTo("FENCED/DONE");
        assertThat(m.busyWorkers()).isZero();
    }

    @Test
    void lapsedLeaseHandsNothingAndAcksNothing() {
        OwnedShard s = reading(S);
        List<StreamRecord> batch = records(S, 1, 10);
        m.readDone(s, false, new ShardCommands.ReadResult("10-0", batch));
        h.lease.extendTo(h.timers.nowMs());
        assertThat(m.handled(s, batch, 0, null)).isEmpty();
        assertThat(state(s)).isEqualTo("READING/WAITING");
        assertThat(h.advance(ShardOutcomes.LEASE_RECHECK_MS)).isEmpty(); // looked again: still lapsed
        h.lease.extendTo(Long.MAX_VALUE);
        assertThat(h.advance(ShardOutcomes.LEASE_RECHECK_MS)).containsExactly(new ShardAction.Ack(s, ids(batch)));
    }

    @Test
    void handlerFailuresRetryThenSplitThenDeadLetter() {
        OwnedShard s = reading(S);
        List<StreamRecord> batch = records(S, 1, 10);
        m.readDone(s, false, new ShardCommands.ReadResult("10-0", batch));
        RuntimeException boom = new RuntimeException("boom");
        assertThat(m.handled(s, batch, 0, boom)).isEmpty();
        assertThat(state(s)).isEqualTo("READING/WAITING");
        assertThat(handedIds(h.advance(10))).isEqualTo(ids(batch)); // the records carry their attempt (BatchRun)
        m.handled(s, batch, 0, boom);
        assertThat(handedIds(h.advance(20))).isEqualTo(ids(batch));
        assertThat(handedIds(m.handled(s, batch, 0, boom))).containsExactly("1-0"); // split: one by one
        NonRetriableException poison = new NonRetriableException("poison");
        List<ShardAction> dead = m.handled(s, batch.subList(0, 1), 0, poison);
        assertThat(dead).hasSize(1).first().isInstanceOf(ShardAction.DeadLetter.class);
        assertThat(((ShardAction.DeadLetter) dead.get(0)).record().entryId()).isEqualTo("1-0");
        assertThat(m.deadLettered(s, batch.get(0), "99-0", null)).containsExactly(new ShardAction.Ack(s, List.of("1-0")));
        assertThat(handedIds(m.acked(s))).containsExactly("2-0");
    }

    private static List<String> handedIds(List<ShardAction> actions) {
        assertThat(actions).hasSize(1).first().isInstanceOf(ShardAction.Handle.class);
        return ids(((ShardAction.Handle) actions.get(0)).records());
    }

    @Test
    void deadLetterStreamRefusedStopsTheShardAndReportsFailed() {
        OwnedShard s = reading(S);
        List<StreamRecord> one = records(S, 1, 10).subList(0, 1);
        m.readDone(s, false, new ShardCommands.ReadResult("1-0", one));
        NonRetriableException poison = new NonRetriableException("poison");
        m.handled(s, one, 0, poison);
        List<ShardAction> actions = m.deadLettered(s, one.get(0), null, new RuntimeException("WRONGTYPE dlq"));
        assertThat(actions).hasSize(1).first().isInstanceOf(ShardAction.Failed.class);
        assertThat(state(s)).isEqualTo("READING/PARKED");
    }

    @Test
    void localWorkersBoundHandlerCallsAndServeShardsInTurn() {
        OwnedShard a = reading(shard(0));
        OwnedShard b = reading(shard(1));
        OwnedShard c = reading(shard(2));
        List<StreamRecord> ra = records(shard(0), 1, 10);
        List<StreamRecord> rb = records(shard(1), 1, 10);
        List<StreamRecord> rc = records(shard(2), 1, 10);
        assertThat(m.readDone(a, false, new ShardCommands.ReadResult("10-0", ra))).containsExactly(new ShardAction.Handle(a, ra));
        assertThat(m.readDone(b, false, new ShardCommands.ReadResult("10-0", rb))).containsExactly(new ShardAction.Handle(b, rb));
        assertThat(m.readDone(c, false, new ShardCommands.ReadResult("10-0", rc))).isEmpty();
        assertThat(state(c)).isEqualTo("READING/QUEUED");
        assertThat(m.handled(a, ra, 0, null)).containsExactly(new ShardAction.Handle(c, rc), new ShardAction.AckAndRead(a, ids(ra), false));
    }

    @Test
    void backloggedShardsNextCallWaitsForKeepingUpReadsInFlight() {
        OwnedShard fast = reading(shard(0));
        OwnedShard slow = reading(shard(1));
        m.readDone(fast, false, new ShardCommands.ReadResult("0-0", List.of()));
        assertThat(m.woken(shard(0))).containsExactly(new ShardAction.Read(fast, ">", true)); // a keeping-up read in flight
        List<StreamRecord> batch = records(shard(1), 1, 10);
        m.readDone(slow, false, new ShardCommands.ReadResult("10-0", batch));
        assertThat(m.handled(slow, batch, 0, null)).isEmpty(); // its ack-and-read waits
        assertThat(m.readDone(fast, false, new ShardCommands.ReadResult("0-0", List.of())))
                .containsExactly(new ShardAction.AckAndRead(slow, ids(batch), false), new ShardAction.Watch(shard(0), "0-0"));
    }

    @Test
    void acquireUnderAnotherEpochWhileOwnedIsRefused() {
        assign(S);
        assertThat(m.acquire(S, 1)).isEmpty();
        assertThatThrownBy(() -> m.acquire(S, 2)).isInstanceOf(IllegalStateException.class).hasMessageContaining("epoch 1");
    }

    private OwnedShard assign(ShardId shard) {
        List<ShardAction> actions = m.acquire(shard, 1);
        assertThat(actions).hasSize(1);
        return ((ShardAction.Assign) actions.get(0)).shard();
    }

    /** A shard through takeover and an empty replay, its first read of new entries in flight. */
    private OwnedShard reading(ShardId shard) {
        OwnedShard s = assign(shard);
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
