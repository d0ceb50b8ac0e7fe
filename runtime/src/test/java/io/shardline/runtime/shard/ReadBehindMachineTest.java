package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MachineHarness.records;
import static io.shardline.runtime.shard.MachineHarness.settings;
import static io.shardline.runtime.shard.MachineHarness.shard;
import static io.shardline.runtime.shard.MachineHarness.state;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link ShardMachine}'s side of the read behind a wake-up read ({@link ReadBehind}): which shards may be claimed,
 * that a claimed shard reads nothing else until the outcome landed, and what each outcome makes of the shard.
 */
class ReadBehindMachineTest {

    private static final ShardId S = shard(0);

    private final MachineHarness h = new MachineHarness(settings(2, 10, 100));
    private final ShardMachine m = h.machine;

    @Test
    void onlyAnIdleReadingShardIsClaimedAndOnlyOnce() {
        OwnedShard s = h.reading(S);
        assertThat(m.claimReadBehind(S)).as("a read in flight").isNull();
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        assertThat(state(s)).isEqualTo("READING/IDLE");
        assertThat(m.claimReadBehind(S)).isSameAs(s);
        assertThat(m.claimReadBehind(S)).as("claimed already").isNull();
        assertThat(m.claimReadBehind(shard(9))).as("not owned").isNull();
    }

    @Test
    void aBatchReadBehindIsHandledBeforeTheHeldAckWhichGoesWithItsOwn() {
        OwnedShard s = lingering(S);
        assertThat(m.claimReadBehind(S)).isSameAs(s);
        List<StreamRecord> next = records(S, 2, 1);
        assertThat(m.behindLanded(s, new ReadBehind.Outcome(new ShardCommands.ReadResult("2-0", next), null)))
                .containsExactly(new ShardAction.Handle(s, next));
        assertThat(h.timers.pending()).as("the linger timer is cancelled").isEmpty();
        assertThat(m.handled(s, next, 0, null)).as("held ids do not linger twice")
                .containsExactly(new ShardAction.AckAndRead(s, List.of("1-0", "2-0"), true));
    }

    @Test
    void aClaimedShardWhoseLingerIsOverWaitsForItsReadBehind() {
        OwnedShard s = lingering(S);
        m.claimReadBehind(S);
        assertThat(h.advance(100)).as("no read of its own; the wake-up read is made to return")
                .containsExactly(new ShardAction.Unwatch(S));
        assertThat(state(s)).isEqualTo("READING/PARKED");
        assertThat(m.behindLanded(s, ReadBehind.Outcome.NOTHING))
                .containsExactly(new ShardAction.AckAndRead(s, List.of("1-0"), true));
    }

    @Test
    void nothingNewLeavesAnIdleShardIdle() {
        OwnedShard s = lingering(S);
        m.claimReadBehind(S);
        assertThat(m.behindLanded(s, ReadBehind.Outcome.NOTHING)).isEmpty();
        assertThat(state(s)).isEqualTo("READING/LINGERING");
        assertThat(m.claimReadBehind(S)).as("claimed again by the next wake-up read").isSameAs(s);
    }

    @Test
    void anUnknownOutcomeReplaysThePendingEntriesFirst() {
        OwnedShard s = h.reading(S);
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        m.claimReadBehind(S);
        assertThat(m.behindLanded(s, null)).containsExactly(new ShardAction.Read(s, "0", false));
        assertThat(state(s)).isEqualTo("REPLAYING/STEPPING");
    }

    @Test
    void aRefusalWakesTheShardToReadByItself() {
        OwnedShard s = h.reading(S);
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        m.claimReadBehind(S);
        assertThat(m.behindLanded(s, new ReadBehind.Outcome(null, "FENCED {orders:0} owner=B epoch=2")))
                .containsExactly(new ShardAction.Read(s, ">", true));
    }

    @Test
    void aShardPausedWhileClaimedKeepsTheBatchForItsResume() {
        OwnedShard s = h.reading(S);
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        m.claimReadBehind(S);
        assertThat(m.pause(S)).containsExactly(new ShardAction.Unwatch(S));
        assertThat(m.resume(S)).as("its read is in flight behind the wake-up read").isEmpty();
        List<StreamRecord> next = records(S, 1, 2);
        assertThat(m.behindLanded(s, new ReadBehind.Outcome(new ShardCommands.ReadResult("2-0", next), null)))
                .containsExactly(new ShardAction.Handle(s, next));
    }

    @Test
    void recordsLandingWhileTheShardReplaysWaitForTheReplayInEntryIdOrder() {
        // the interleaving a simulation driver once produced by landing one claim twice: the first landing is unknown
        // (Redis read record 2, the reply was lost), the second brings record 3 while the shard replays
        OwnedShard s = lingering(S);
        m.claimReadBehind(S);
        assertThat(m.behindLanded(s, null)).as("the held ack goes first")
                .containsExactly(new ShardAction.Ack(s, List.of("1-0")));
        assertThat(m.behindLanded(s, new ReadBehind.Outcome(new ShardCommands.ReadResult("3-0", records(S, 3, 1)), null)))
                .as("record 3 is not handled before the pending record 2").isEmpty();
        assertThat(state(s)).isEqualTo("REPLAYING/STEPPING");
        assertThat(m.acked(s)).containsExactly(new ShardAction.Read(s, "0", false));
        List<StreamRecord> two = records(S, 2, 1);
        assertThat(m.readDone(s, true, new ShardCommands.ReadResult("2-0", two)))
                .containsExactly(new ShardAction.Handle(s, two));
    }

    @Test
    void recordsLandingForAShardNotClaimedAreReplayed() {
        OwnedShard s = h.reading(S);
        m.readDone(s, false, new ShardCommands.ReadResult("0-0", List.of()));
        assertThat(m.behindLanded(s, new ReadBehind.Outcome(new ShardCommands.ReadResult("1-0", records(S, 1, 1)), null)))
                .containsExactly(new ShardAction.Read(s, "0", false));
        assertThat(state(s)).isEqualTo("REPLAYING/STEPPING");
    }

    /** A shard that handled record 1 and holds its acknowledgement on the wake-up connections. */
    private OwnedShard lingering(ShardId shard) {
        OwnedShard s = h.reading(shard);
        List<StreamRecord> one = records(shard, 1, 1);
        m.readDone(s, false, new ShardCommands.ReadResult("1-0", one));
        assertThat(m.handled(s, one, 0, null)).containsExactly(new ShardAction.Watch(shard, "1-0"));
        assertThat(state(s)).isEqualTo("READING/LINGERING");
        return s;
    }
}
