package io.shardline.coordinator.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deterministic simulation of the coordinator with members, failovers, crashes, GC pauses, leaves, joins,
 * reshards and a faulty network (drops, duplicates, reordering); invariants after every event, stability after
 * faults end (see {@link SimConfig#stabilityBoundMs()}).
 *
 * <p>{@code -Dsimulation.seeds=N} runs N seeds from {@code -Dsimulation.firstSeed} (default 1);
 * {@code -Dsimulation.seed=S} replays seed S alone. A failing seed prints itself and its last events.
 */
@Tag("simulation")
class CoordinatorSimulationTest {

    /** The outcome of one seed. */
    private record Outcome(long seed, long stabilizationMs, long events, SimStats stats, AssertionError failure) {
    }

    private static Outcome runSeed(long seed, boolean tracing) {
        Simulation sim = new Simulation(seed, tracing);
        try {
            long stabilization = sim.run();
            return new Outcome(seed, stabilization, sim.eventsExecuted(), sim.stats(), null);
        } catch (AssertionError e) {
            return new Outcome(seed, -1, sim.eventsExecuted(), sim.stats(), e);
        }
    }

    @Test
    void manySeeds() {
        String single = System.getProperty("simulation.seed");
        long first = single != null ? Long.parseLong(single) : Long.getLong("simulation.firstSeed", 1L);
        long count = single != null ? 1 : Long.getLong("simulation.seeds", 2000L);
        long start = System.nanoTime();
        // Seeds are independent and each is deterministic, so they run in parallel; results are merged in order.
        List<Outcome> outcomes = LongStream.range(first, first + count).parallel()
                .mapToObj(seed -> runSeed(seed, single != null)).sorted(Comparator.comparingLong(Outcome::seed))
                .toList();
        long ms = (System.nanoTime() - start) / 1_000_000;
        for (Outcome o : outcomes) {
            if (o.failure() != null) {
                // Replay the first failing seed with its trace.
                Outcome traced = runSeed(o.seed(), true);
                throw traced.failure() != null ? traced.failure() : o.failure();
            }
        }
        SimStats stats = new SimStats();
        long events = 0;
        Outcome slowest = outcomes.get(0);
        for (Outcome o : outcomes) {
            stats.addAll(o.stats());
            events += o.events();
            if (o.stabilizationMs() > slowest.stabilizationMs()) {
                slowest = o;
            }
        }
        System.out.printf("simulation: %d seeds from %d, %d events, %d ms; slowest stabilization %d ms after faults "
                + "ended (seed %d)%n", count, first, events, ms, slowest.stabilizationMs(), slowest.seed());
        System.out.println("simulation: " + stats);
        if (count >= 200) {
            for (String kind : List.of("crash", "pause", "leave", "join", "failover", "leader crash", "deposed leader writes refused",
                    "self-fenced at lease deadline", "fenced by the coordinator", "messages dropped",
                    "messages duplicated", "shard_set_changed", "reshard_rollback", "eager seeds",
                    "cooperative-sticky seeds",
                    "static restart under a new member id", "hung drains", "hung drains resolved in bound",
                    "coordinator fenced at rebalance timeout", "self-fenced at rebalance timeout")) {
                assertTrue(stats.get(kind) > 0, "no seed exercised '" + kind + "': " + stats);
            }
        }
    }

    @Test
    void aSeedReplaysExactly() {
        Simulation first = new Simulation(42, false);
        Simulation second = new Simulation(42, false);
        assertEquals(first.run(), second.run());
        assertEquals(first.eventsExecuted(), second.eventsExecuted());
        assertEquals(first.stats().counts(), second.stats().counts());
        assertEquals(first.leader().coordinator().snapshot(), second.leader().coordinator().snapshot());
    }
}
