package io.shardline.coordinator;

import static io.shardline.coordinator.testing.CoordinatorTestContext.shards;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.shardline.coordinator.protocol.HeartbeatResponse;
import io.shardline.coordinator.testing.CoordinatorTestContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A member whose lease runs out before another member's next heartbeat is due makes that member come back just after
 * the deadline, and the heartbeat that arrives then expires it and hands its shards out in its answer
 * ({@link LeaseCallBack}): a silent worker's shards are owned again one session timeout after its last heartbeat, not
 * up to a heartbeat interval later.
 */
class LeaseCallBackTest {

    @Test
    void aHeartbeatDueAfterAnotherMembersDeadlineIsCalledBackForItAndGetsItsShards() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(4);
        int session = ctx.group().config().sessionTimeoutMs();
        int interval = ctx.group().config().heartbeatIntervalMs();
        int epochA = ctx.join("A").memberEpoch();
        ctx.heartbeat("A", epochA, shards(0, 1, 2, 3), List.of());
        long aDeadline = ctx.time().milliseconds() + session;
        int epochB = ctx.join("B").memberEpoch();

        // A falls silent. Far from its deadline, B is told the usual interval.
        ctx.time().sleep(session / 2);
        HeartbeatResponse early = ctx.heartbeat("B", epochB, List.of(), List.of());
        assertEquals(interval, early.heartbeatIntervalMs());

        // Half an interval before A's deadline, B is called back for just after it.
        ctx.time().sleep(aDeadline - interval / 2 - ctx.time().milliseconds());
        HeartbeatResponse callBack = ctx.heartbeat("B", early.memberEpoch(), List.of(), List.of());
        assertEquals(interval / 2 + LeaseCallBack.AFTER_DEADLINE_MS, callBack.heartbeatIntervalMs());
        assertNotNull(ctx.member("A"));

        // B comes back then, before any tick: its heartbeat expires A and carries all of A's shards.
        ctx.time().sleep(callBack.heartbeatIntervalMs());
        HeartbeatResponse after = ctx.heartbeat("B", callBack.memberEpoch(), List.of(), List.of());
        assertNull(ctx.member("A"));
        assertEquals(shards(0, 1, 2, 3), List.copyOf(after.assigned().keySet()));
        assertEquals(interval, after.heartbeatIntervalMs());
    }

    @Test
    void aMembersOwnDeadlineNeverCallsItBack() {
        CoordinatorTestContext ctx = CoordinatorTestContext.withShards(2);
        int session = ctx.group().config().sessionTimeoutMs();
        int interval = ctx.group().config().heartbeatIntervalMs();
        int epoch = ctx.join("A").memberEpoch();
        ctx.time().sleep(session - interval / 2);
        assertEquals(interval, ctx.heartbeat("A", epoch, shards(0, 1), List.of()).heartbeatIntervalMs());
    }
}
