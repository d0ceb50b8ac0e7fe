package io.shardline.runtime.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.ShardId;
import io.shardline.api.handler.StreamRecord;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A seeded simulation of one member's shards on the {@link ShardMachine}, against an in-memory model of the fenced
 * Redis commands ({@link SimulatedShards}): reads that return full, partial and empty batches, Redis failures (some
 * applied with their reply lost), handler failures and poison records, pauses, releases, fencing by another epoch,
 * lease lapses with self-fencing, linger timers and read priority, and resharding cutovers (flips of a shard to a new
 * routing epoch, the group's barrier released later, a finished change's fields removed; {@link SimulatedRouting}):
 * no record beyond an unreleased cutover is handed to the handler, and a released shard reads again. Invariants are checked after every event
 * ({@link SimulatedShards#checkInvariants}); at the end, with faults stopped, every record must be acknowledged or
 * dead-lettered. Seeds: {@code -Dshardline.seed=N} replays one run; the seed of every run is printed; seeds that once
 * failed are replayed on every run ({@link #knownSeedsKeepEveryInvariant}).
 */
@Tag("simulation")
class ShardMachineSimulationTest {

    private static final int RUNS = Integer.getInteger("shardline.sim.runs", 10);
    private static final int EVENTS = Integer.getInteger("shardline.sim.events", 3_000);

    @Test
    void randomRunsKeepEveryInvariant() {
        Long fixed = Long.getLong("shardline.seed");
        long base = fixed != null ? fixed : new Random().nextLong();
        int runs = fixed != null ? 1 : RUNS;
        for (int i = 0; i < runs; i++) {
            long seed = base + i;
            System.out.println("SIMULATION shardline.seed=" + seed);
            try {
                run(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("simulation failed; replay with -Dshardline.seed=" + seed + ": " + e.getMessage(), e);
            }
        }
    }

    /** Seeds that once failed, replayed on every run. */
    @Test
    void knownSeedsKeepEveryInvariant() {
        // a read behind a wake-up read landed twice (the driver ran one claim's read again): 151-0 after ack of 152
        for (long seed : new long[] {8336014003807574984L}) {
            try {
                run(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("known seed failed; replay with -Dshardline.seed=" + seed + ": " + e.getMessage(), e);
            }
        }
    }

    private static void run(long seed) {
        Random rnd = new Random(seed);
        ConsumerSettings settings = new ConsumerSettings(MachineHarness.GROUP, 1 + rnd.nextInt(3), 1 + rnd.nextInt(10),
                AckMode.ACK, 1 + rnd.nextInt(3), 10, 100, "dlq", 30_000,
                rnd.nextInt(4) == 0 ? ConsumerSettings.ReleaseMode.ABANDON : ConsumerSettings.ReleaseMode.FINISH,
                1_000, 1_000, HotPath.TRANSACTION, rnd.nextBoolean() ? 0 : 100,
                Integer.MAX_VALUE) // the model does not count deliveries (max.deliveries: PoisonRecordIntegrationTest)
                .withCutoverPoll(10 + rnd.nextInt(100));
        SimulatedShards sim = new SimulatedShards(rnd, settings, 2 + rnd.nextInt(6));
        sim.start();
        for (int i = 0; i < EVENTS; i++) {
            sim.faults(true);
            sim.step();
            sim.checkInvariants();
        }
        sim.faults(false);
        sim.settle();
        long deadline = sim.now() + 600_000;
        while (!sim.quiet() && sim.now() < deadline) {
            sim.step();
            sim.checkInvariants();
        }
        sim.checkInvariants();
        sim.checkAllDone();
        System.out.println("SIMULATION shardline.seed=" + seed + " cutover polls=" + sim.cutoverPolls());
    }

    @Test
    void poisonRecordsAreDeadLetteredAndTheRestAcknowledged() {
        Random rnd = new Random(42);
        ConsumerSettings settings = MachineHarness.settings(2, 5, 100);
        SimulatedShards sim = new SimulatedShards(rnd, settings, 3);
        sim.faults(false);
        sim.start();
        for (int i = 0; i < 3; i++) {
            sim.produce(MachineHarness.shard(i), 20);
        }
        long deadline = sim.now() + 60_000;
        while (!sim.quiet() && sim.now() < deadline) {
            sim.step();
            sim.checkInvariants();
        }
        sim.checkAllDone();
        assertThat(sim.acked()).isGreaterThan(0);
    }

    /** A handler outcome for a simulated call: fails on poison records, sometimes on others while faults are on. */
    static Throwable handlerOutcome(Random rnd, List<StreamRecord> records, boolean faults) {
        for (StreamRecord r : records) {
            if (r.fields().containsKey("poison")) {
                return rnd.nextBoolean() ? new NonRetriableException("poison " + r.entryId()) : new RuntimeException("poison");
            }
        }
        return faults && rnd.nextInt(10) == 0 ? new RuntimeException("handler failed") : null;
    }

    /** The shard of a simulated event. */
    static ShardId anyShard(Random rnd, int shards) {
        return MachineHarness.shard(rnd.nextInt(shards));
    }
}
