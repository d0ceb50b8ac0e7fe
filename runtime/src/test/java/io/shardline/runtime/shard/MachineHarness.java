package io.shardline.runtime.shard;

import com.codahale.metrics.MetricRegistry;
import io.shardline.api.config.ConfigDef;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ShardMachine} without Redis or Vert.x: manual timers and a lease on a manual clock. Tests feed it events
 * and look at the {@link ShardAction}s it returns.
 */
final class MachineHarness {

    static final String GROUP = "g";
    static final String MEMBER = "A";

    final ManualShardTimers timers = new ManualShardTimers();
    final AtomicLong clock = new AtomicLong();
    final MemberLease lease = new MemberLease(() -> timers.nowMs());
    final ConsumptionMetrics metrics = new ConsumptionMetrics(new MetricRegistry(), "orders-listener");
    final ShardMachine machine;

    MachineHarness(ConsumerSettings settings) {
        lease.extendTo(Long.MAX_VALUE);
        MemberContext context = new MemberContext("orders-listener", MEMBER, GROUP, new ConfigDef().parse(Map.of()),
                HandlerMetrics.noop());
        machine = new ShardMachine(context, settings, lease, metrics, clock::get, timers);
    }

    /** Settings: {@code workers} local workers, batches of {@code batch}, 3 attempts, 10..100 ms backoff. */
    static ConsumerSettings settings(int workers, int batch, long lingerMs) {
        return new ConsumerSettings(GROUP, workers, batch, AckMode.ACK, 3, 10, 100, "dlq", 30_000,
                ConsumerSettings.ReleaseMode.FINISH, 1_000, 1_000, HotPath.TRANSACTION, lingerMs,
                ConsumerSettings.DEFAULT_MAX_DELIVERIES);
    }

    static ShardId shard(int i) {
        return new ShardId("orders", i);
    }

    static StreamRecord record(ShardId shard, long n) {
        return new StreamRecord(shard, n + "-0", Map.of("n", Long.toString(n)), 1);
    }

    static List<StreamRecord> records(ShardId shard, long from, int count) {
        List<StreamRecord> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(record(shard, from + i));
        }
        return out;
    }

    static long number(String entryId) {
        return Long.parseLong(entryId.substring(0, entryId.indexOf('-')));
    }

    /** A shard through takeover and an empty replay, its first read of new entries in flight. */
    OwnedShard reading(ShardId shard) {
        OwnedShard s = ((ShardAction.Assign) machine.acquire(shard, 1).get(0)).shard();
        machine.assigned(s);
        machine.takeoverDone(s, new ShardCommands.TakeoverPage("0-0", 0));
        machine.readDone(s, true, new ShardCommands.ReadResult("", List.of()));
        return s;
    }

    /** The shard's state as {@code PHASE/ACTIVITY}. */
    static String state(OwnedShard s) {
        return s.phase() + "/" + s.activity();
    }

    /** Moves the clock and fires the timers due; returns the actions they caused. */
    List<ShardAction> advance(long ms) {
        List<ShardAction> out = new ArrayList<>();
        for (ManualShardTimers.Timer t : timers.advanceTo(timers.nowMs() + ms)) {
            out.addAll(machine.timerFired(t.shard(), t.kind(), t.id()));
        }
        return out;
    }
}
