package io.shardline.runtime.shard;

import static io.shardline.runtime.shard.MachineHarness.number;
import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * One member's {@link ShardMachine} driven against an in-memory model of the fenced shard commands, on a manual
 * clock, with seeded faults; the driver side of {@link ShardMachineSimulationTest}. Plays the coordinator too: it
 * gives a shard back (under a new epoch) once its previous ownership was revoked and has no call in flight.
 */
final class SimulatedShards {

    private record Event(long at, long seq, Runnable run) {
    }

    /** One shard in the Redis model. */
    private static final class Stream {
        final List<StreamRecord> entries = new ArrayList<>();
        int delivered;
        final TreeSet<Long> pel = new TreeSet<>();
        long ownerEpoch;
        String watchedAfter;
        long lastAcked;
        /** The ownership whose read behind the wake-up read is in flight ({@link ReadBehind}), or null. */
        OwnedShard claimed;
        /** The claimed read behind has been sent (its wake-up read returned or was interrupted): it lands once. */
        boolean landing;
    }

    private final Random rnd;
    private final ConsumerSettings settings;
    private final int shardCount;
    private final MachineHarness h;
    private final ShardMachine m;
    private final PriorityQueue<Event> events = new PriorityQueue<>(
            (a, b) -> a.at() != b.at() ? Long.compare(a.at(), b.at()) : Long.compare(a.seq(), b.seq()));
    private final Map<ShardId, Stream> streams = new TreeMap<>();
    private final Map<OwnedShard, Integer> inFlight = new IdentityHashMap<>();
    private final Map<OwnedShard, Long> queuedSince = new IdentityHashMap<>();
    private final Map<OwnedShard, Long> releasedWaitSince = new IdentityHashMap<>();
    private final SimulatedRouting routing = new SimulatedRouting();
    private final Map<ShardId, OwnedShard> ownership = new HashMap<>();
    private final Set<String> handledOk = new HashSet<>();
    private final Set<String> acked = new HashSet<>();
    private final Set<String> deadLettered = new HashSet<>();
    private final Set<String> poison = new HashSet<>();
    private long seq;
    private long cutoverPolls;
    private long produced;
    private long nextEpoch = 1;
    private boolean faults;
    private boolean settling;

    SimulatedShards(Random rnd, ConsumerSettings settings, int shardCount) {
        this.rnd = rnd;
        this.settings = settings;
        this.shardCount = shardCount;
        this.h = new MachineHarness(settings);
        this.m = h.machine;
        for (int i = 0; i < shardCount; i++) {
            streams.put(MachineHarness.shard(i), new Stream());
        }
    }

    long now() {
        return h.timers.nowMs();
    }

    long acked() {
        return acked.size();
    }

    /** Polls of shards waiting at a cutover so far. */
    long cutoverPolls() {
        return cutoverPolls;
    }

    void faults(boolean on) {
        faults = on;
    }

    void start() {
        streams.keySet().forEach(this::acquire);
    }

    /** Stops faults for good; from now on the coordinator side reconciles until everything is handled. */
    void settle() {
        faults = false;
        settling = true;
        routing.releaseAll();
        later(1, this::reconcile);
    }

    /** Everything produced is acknowledged (and poison records dead-lettered), nothing pending or in flight. */
    boolean quiet() {
        return allDone() && inFlight.values().stream().allMatch(n -> n == 0);
    }

    void step() {
        if (faults && rnd.nextInt(3) == 0) {
            inject();
        }
        long timer = h.timers.nextDueMs();
        Event next = events.peek();
        if (next == null && timer == Long.MAX_VALUE) {
            if (faults) {
                later(1 + rnd.nextInt(50), () -> produce(MachineHarness.shard(rnd.nextInt(shardCount)), 1 + rnd.nextInt(3)));
            }
            return;
        }
        if (next == null || timer <= next.at()) {
            for (ManualShardTimers.Timer t : h.timers.advanceTo(timer)) {
                execute(m.timerFired(t.shard(), t.kind(), t.id()));
            }
        } else {
            events.poll();
            h.timers.advanceTo(next.at());
            next.run().run();
        }
    }

    // ---- the world: producers, REST requests, the coordinator, the lease ----

    private void inject() {
        ShardId shard = MachineHarness.shard(rnd.nextInt(shardCount));
        int pick = rnd.nextInt(100);
        if (pick < 50) {
            produce(shard, 1 + rnd.nextInt(settings.batchSize() * 3));
        } else if (pick < 58) {
            execute(m.pause(shard));
        } else if (pick < 70) {
            execute(m.resume(shard));
        } else if (pick < 72) {
            execute(m.pauseMember(true));
        } else if (pick < 78) {
            execute(m.pauseMember(false));
        } else if (pick < 85) {
            execute(m.release(shard));
        } else if (pick < 89) {
            streams.get(shard).ownerEpoch = nextEpoch++; // the coordinator gave the shard to someone else
        } else if (pick < 93) {
            routing.flip(shard, streams.get(shard).entries.size()); // a reshard flips the shard to a new epoch
        } else if (pick < 95) {
            routing.release(shard, rnd);
        } else if (pick < 97 && h.lease.deadlineMs() == Long.MAX_VALUE) {
            h.lease.extendTo(now()); // the heartbeat loop lost the coordinator
            later(20 + rnd.nextInt(300), () -> {
                execute(m.fenceAll());
                h.lease.extendTo(Long.MAX_VALUE);
            });
        }
    }

    void produce(ShardId shard, int count) {
        Stream st = streams.get(shard);
        for (int i = 0; i < count; i++) {
            long n = st.entries.size() + 1;
            boolean bad = faults && rnd.nextInt(100) == 0;
            StreamRecord r = new StreamRecord(shard, n + "-0", bad ? Map.of("poison", "1") : Map.of("n", Long.toString(n)), 1);
            st.entries.add(r);
            produced++;
            if (bad) {
                poison.add(key(shard, r.entryId()));
            }
        }
        maybeWake(shard);
    }

    private void reconcile() {
        h.lease.extendTo(Long.MAX_VALUE);
        execute(m.pauseMember(false));
        for (Map.Entry<ShardId, Stream> e : streams.entrySet()) {
            OwnedShard s = m.shard(e.getKey());
            if (s == null) {
                acquire(e.getKey());
            } else {
                execute(m.resume(e.getKey()));
                if (s.ownerEpoch() != e.getValue().ownerEpoch) {
                    execute(m.release(e.getKey()));
                }
            }
        }
        if (!allDone()) {
            later(500, this::reconcile);
        }
    }

    /** The coordinator gives the shard to this member under a new epoch once its last ownership has stopped. */
    private void acquire(ShardId shard) {
        OwnedShard previous = ownership.get(shard);
        if (m.shard(shard) != null) {
            return;
        }
        if (previous != null && inFlight.getOrDefault(previous, 0) > 0) {
            later(5, () -> acquire(shard));
            return;
        }
        long epoch = nextEpoch++;
        streams.get(shard).ownerEpoch = epoch;
        execute(m.acquire(shard, epoch));
    }

    // ---- the driver: carries out the machine's decisions against the model ----

    private void execute(List<ShardAction> actions) {
        for (ShardAction a : actions) {
            execute(a);
        }
    }

    private void execute(ShardAction action) {
        if (action instanceof ShardAction.Assign a) {
            ownership.put(a.shard().shard(), a.shard());
            call(a.shard(), 1 + rnd.nextInt(5), () -> m.assigned(a.shard()));
        } else if (action instanceof ShardAction.Takeover a) {
            call(a.shard(), 1 + rnd.nextInt(3), () -> redis(a.shard(), false, false, () -> {
                ShardCommands.TakeoverPage page = "0-0".equals(a.cursor()) && rnd.nextBoolean()
                        ? new ShardCommands.TakeoverPage("1-0", 1) : new ShardCommands.TakeoverPage("0-0", 0);
                return () -> m.takeoverDone(a.shard(), page);
            }));
        } else if (action instanceof ShardAction.Read a) {
            boolean replay = !">".equals(a.from());
            call(a.shard(), 1 + rnd.nextInt(3), () -> redis(a.shard(), !replay, !replay, () -> {
                ShardCommands.ReadResult page = replay ? replay(a.shard(), a.from()) : readNew(a.shard());
                return () -> m.readDone(a.shard(), replay, page);
            }));
        } else if (action instanceof ShardAction.Ack a) {
            checkMayAck(a.shard());
            call(a.shard(), 1 + rnd.nextInt(3), () -> redis(a.shard(), false, true, () -> {
                ack(a.shard(), a.ids());
                return () -> m.acked(a.shard());
            }));
        } else if (action instanceof ShardAction.AckAndRead a) {
            checkMayAck(a.shard());
            call(a.shard(), 1 + rnd.nextInt(3), () -> redis(a.shard(), true, true, () -> {
                ack(a.shard(), a.ids());
                ShardCommands.ReadResult page = readNew(a.shard());
                return () -> m.ackAndReadDone(a.shard(), page);
            }));
        } else if (action instanceof ShardAction.Handle a) {
            handle(a.shard(), a.records());
        } else if (action instanceof ShardAction.DeadLetter a) {
            call(a.shard(), 1 + rnd.nextInt(3), () -> {
                if (faults && rnd.nextInt(10) == 0) {
                    return m.deadLettered(a.shard(), a.record(), null, new RuntimeException("timeout"));
                }
                deadLettered.add(key(a.shard().shard(), a.record().entryId()));
                return m.deadLettered(a.shard(), a.record(), "1-0", null);
            });
        } else if (action instanceof ShardAction.PollCutover a) {
            assertThat(a.shard().phase()).as("poll of " + a.shard()).isEqualTo(ShardPhase.AT_CUTOVER);
            cutoverPolls++;
            call(a.shard(), 1 + rnd.nextInt(3), () -> faults && rnd.nextInt(12) == 0
                    ? m.redisFailed(a.shard(), new RuntimeException("timeout waiting for the reply"), false)
                    : m.cutoverPolled(a.shard(), routing.released(a.shard().shard(), a.epoch())));
        } else if (action instanceof ShardAction.EnsureGroup a) {
            call(a.shard(), 1, () -> m.groupEnsured(a.shard(), null));
        } else if (action instanceof ShardAction.Watch a) {
            Stream st = streams.get(a.shard());
            st.watchedAfter = a.afterId();
            if (st.claimed == null && rnd.nextBoolean()) { // the wake-up read goes out with a read behind it
                st.claimed = m.claimReadBehind(a.shard());
            }
            maybeWake(a.shard());
        } else if (action instanceof ShardAction.Unwatch a) {
            Stream st = streams.get(a.shard());
            st.watchedAfter = null;
            landBehind(st, null); // the wake-up read is interrupted: its read behind runs (and may read) and lands
        } else if (action instanceof ShardAction.Revoke a) {
            later(1 + rnd.nextInt(5), () -> acquire(a.shard().shard()));
        } else if (action instanceof ShardAction.Failed a) {
            throw new AssertionError("shard failed: " + a.reason());
        }
    }

    /** Starts a call of {@code s} that returns after {@code delay}: at most one call in flight per shard. */
    private void call(OwnedShard s, long delay, Supplier<List<ShardAction>> result) {
        assertThat(inFlight.getOrDefault(s, 0)).as("calls in flight of " + s).isZero();
        assertThat(streams.get(s.shard()).claimed).as("a call of " + s + " while its read behind a wake-up read is in flight")
                .isNotSameAs(s);
        inFlight.put(s, 1);
        later(delay, () -> {
            inFlight.put(s, 0);
            execute(result.get());
        });
    }

    /**
     * A fenced Redis call: refused ({@code FENCED}) under a stale epoch; with faults, sometimes failed with a timeout,
     * either before Redis ran it or ({@code applyBeforeLoss}) after: its effects stay, the reply is lost.
     * {@code apply} changes the model and returns the delivery of the reply to the machine.
     */
    private List<ShardAction> redis(OwnedShard s, boolean readNew, boolean applyBeforeLoss,
                                    Supplier<Supplier<List<ShardAction>>> apply) {
        if (streams.get(s.shard()).ownerEpoch != s.ownerEpoch()) {
            return m.redisFailed(s, new RuntimeException("FENCED " + s.shard() + " is owned under epoch "
                    + streams.get(s.shard()).ownerEpoch), readNew);
        }
        if (faults && rnd.nextInt(12) == 0) {
            if (applyBeforeLoss && rnd.nextBoolean()) {
                apply.get(); // Redis ran it; the reply never arrives
            }
            return m.redisFailed(s, new RuntimeException("timeout waiting for the reply"), readNew);
        }
        return apply.get().get();
    }

    private void handle(OwnedShard s, List<StreamRecord> records) {
        assertThat(s.phase().active()).as("handler call for a stopped shard " + s).isTrue();
        Stream st = streams.get(s.shard());
        long last = st.lastAcked;
        SimulatedRouting.Bound bound = routing.bound(s.shard());
        for (StreamRecord r : records) {
            if (bound != null) {
                assertThat(number(r.entryId())).as("record " + r.entryId() + " of " + s.shard() + " beyond the unreleased "
                        + "cutover " + bound).isLessThanOrEqualTo(bound.cutover());
            }
            assertThat(number(r.entryId())).as("entry-id order on " + s.shard() + ": " + r.entryId() + " after ack of "
                    + last).isGreaterThan(last);
            last = number(r.entryId());
        }
        long handling = inFlight.entrySet().stream()
                .filter(e -> e.getKey().shard().equals(s.shard()) && e.getValue() > 0 && e.getKey() != s).count();
        assertThat(handling).as("other calls in flight on " + s.shard() + " while it is handled").isZero();
        boolean leaseValid = h.lease.valid();
        call(s, 1 + rnd.nextInt(15), () -> {
            if (!leaseValid) {
                return m.handled(s, records, 0, new LeaseLapsedException("lease ran out"));
            }
            Throwable error = ShardMachineSimulationTest.handlerOutcome(rnd, records, faults);
            if (error == null) {
                records.forEach(r -> handledOk.add(key(s.shard(), r.entryId())));
            }
            return m.handled(s, records, 0, error);
        });
    }

    private void checkMayAck(OwnedShard s) {
        assertThat(s.phase().active()).as("ack decided for a stopped shard " + s).isTrue();
        assertThat(h.lease.valid()).as("ack decided after the lease ran out: " + s).isTrue();
    }

    private void ack(OwnedShard s, List<String> ids) {
        Stream st = streams.get(s.shard());
        for (String id : ids) {
            String k = key(s.shard(), id);
            assertThat(handledOk.contains(k) || deadLettered.contains(k)).as("acked but neither handled nor dead-lettered: " + k).isTrue();
            if (acked.add(k)) {
                assertThat(number(id)).as("acks in entry-id order on " + s.shard()).isGreaterThan(st.lastAcked);
                st.lastAcked = number(id);
            }
            st.pel.remove(number(id));
        }
    }

    private ShardCommands.ReadResult readNew(OwnedShard s) {
        Stream st = streams.get(s.shard());
        List<StreamRecord> out = new ArrayList<>();
        SimulatedRouting.Bound bound = routing.bound(s.shard());
        long limit = bound == null ? st.entries.size() : Math.min(st.entries.size(), bound.cutover());
        if (bound != null && st.delivered >= limit) {
            return new ShardCommands.ReadResult(st.delivered + "-0", List.of(), bound.epoch()); // waits at the cutover
        }
        while (st.delivered < limit && out.size() < settings.batchSize()) {
            StreamRecord r = st.entries.get(st.delivered++);
            st.pel.add(number(r.entryId()));
            out.add(r);
        }
        String top = st.entries.isEmpty() ? "0-0" : st.entries.get(st.entries.size() - 1).entryId();
        return new ShardCommands.ReadResult(out.isEmpty() ? top : out.get(out.size() - 1).entryId(), out);
    }

    private ShardCommands.ReadResult replay(OwnedShard s, String cursor) {
        Stream st = streams.get(s.shard());
        long after = "0".equals(cursor) || "0-0".equals(cursor) ? 0 : number(cursor);
        List<StreamRecord> out = new ArrayList<>();
        for (long n : st.pel.tailSet(after, false)) {
            if (out.size() == 1) { // the driver replays pending entries one by one
                break;
            }
            out.add(st.entries.get((int) n - 1));
        }
        return out.isEmpty() ? new ShardCommands.ReadResult("", List.of())
                : new ShardCommands.ReadResult(out.get(out.size() - 1).entryId(), out);
    }

    private void maybeWake(ShardId shard) {
        Stream st = streams.get(shard);
        if (st.watchedAfter != null && !st.entries.isEmpty()
                && number(st.entries.get(st.entries.size() - 1).entryId()) > number(st.watchedAfter)) {
            String after = st.watchedAfter;
            st.watchedAfter = null;
            if (st.claimed != null) {
                landBehind(st, after);
            } else {
                later(1 + rnd.nextInt(3), () -> execute(m.woken(shard)));
            }
        }
    }

    /**
     * The read behind the wake-up read of a claimed shard runs (fenced; with faults its reply is sometimes lost after it
     * read) and lands, once per claim as {@link WakeUpLoop} sends one per wake-up read: a wake-up read that returned for
     * new entries and is then interrupted as well (the shard paused meanwhile) does not run it twice. Until it landed
     * the shard must start no call of its own ({@link #call}).
     */
    private void landBehind(Stream st, String rewatchAfter) {
        OwnedShard s = st.claimed;
        if (s == null || st.landing) {
            return;
        }
        st.landing = true;
        later(1 + rnd.nextInt(3), () -> {
            st.claimed = null;
            st.landing = false;
            ReadBehind.Outcome outcome;
            if (st.ownerEpoch != s.ownerEpoch()) {
                outcome = new ReadBehind.Outcome(null, "FENCED " + s.shard() + " is owned under epoch " + st.ownerEpoch);
            } else {
                ShardCommands.ReadResult page = readNew(s);
                outcome = page.records().isEmpty() && !page.waiting() ? ReadBehind.Outcome.NOTHING
                        : new ReadBehind.Outcome(page, null);
                if (faults && rnd.nextInt(10) == 0) {
                    outcome = null; // read, reply lost
                }
            }
            if (outcome == ReadBehind.Outcome.NOTHING && rewatchAfter != null && st.watchedAfter == null) {
                st.watchedAfter = rewatchAfter; // still idle: the next wake-up read watches it again
            }
            execute(m.behindLanded(s, outcome));
        });
    }

    private void later(long delayMs, Runnable run) {
        events.add(new Event(now() + delayMs, seq++, run));
    }

    // ---- invariants ----

    /** Checked after every event. */
    void checkInvariants() {
        int handling = 0;
        for (OwnedShard s : ownership.values()) {
            assertThat(OwnedShard.allowed(s.phase(), s.activity())).as("state of " + s).isTrue();
            if (inFlight.getOrDefault(s, 0) > 0) {
                assertThat(s.activity().inFlight()).as(s + " has a call in flight").isTrue();
            }
            if (s.activity() == ShardActivity.HANDLING) {
                handling++;
            }
            if (s.activity() == ShardActivity.QUEUED) {
                long since = queuedSince.computeIfAbsent(s, k -> now());
                assertThat(now() - since).as(s + " starved in the ready queue").isLessThan(10_000);
            } else {
                queuedSince.remove(s);
            }
            // once released, a waiting shard that may read (not paused, lease valid) reads again within its polls
            if (s.phase() == ShardPhase.AT_CUTOVER && routing.released(s.shard(), s.cutoverEpoch) && !s.paused
                    && !m.memberPaused() && h.lease.valid()) {
                long since = releasedWaitSince.computeIfAbsent(s, k -> now());
                assertThat(now() - since).as(s + " starved at a released cutover").isLessThan(10_000);
            } else {
                releasedWaitSince.remove(s);
            }
        }
        assertThat(m.busyWorkers()).as("local workers in use").isLessThanOrEqualTo(settings.maxConcurrency())
                .isGreaterThanOrEqualTo(handling);
    }

    private boolean allDone() {
        return acked.size() == produced;
    }

    /** At the end: every record acknowledged, poison ones dead-lettered first; nothing pending. */
    void checkAllDone() {
        for (Map.Entry<ShardId, Stream> e : streams.entrySet()) {
            for (StreamRecord r : e.getValue().entries) {
                String k = key(e.getKey(), r.entryId());
                assertThat(acked).as("record " + k + " acknowledged").contains(k);
                if (poison.contains(k)) {
                    assertThat(deadLettered).as("poison record " + k + " dead-lettered").contains(k);
                }
            }
            assertThat(e.getValue().pel).as("pending entries of " + e.getKey()).isEmpty();
        }
    }

    private static String key(ShardId shard, String id) {
        return shard + ":" + id;
    }
}
