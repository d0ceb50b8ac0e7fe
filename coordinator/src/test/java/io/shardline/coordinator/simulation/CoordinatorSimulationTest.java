package io.shardline.coordinator.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

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

    @Test
    void manySeeds() {
        String single = System.getProperty("simulation.seed");
        long first = single != null ? Long.parseLong(single) : Long.getLong("simulation.firstSeed", 1L);
        long count = single != null ? 1 : Long.getLong("simulation.seeds", 2000L);
        long worstStabilization = 0;
        long worstSeed = -1;
        long events = 0;
        SimStats stats = new SimStats();
        long start = System.nanoTime();
        for (long seed = first; seed < first + count; seed++) {
            Simulation sim = new Simulation(seed, single != null);
            long stabilization;
            try {
                stabilization = sim.run();
            } catch (AssertionError e) {
                new Simulation(seed, true).run();
                throw e;
            }
            events += sim.eventsExecuted();
            stats.addAll(sim.stats());
            if (stabilization > worstStabilization) {
                worstStabilization = stabilization;
                worstSeed = seed;
            }
        }
        long ms = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("simulation: %d seeds from %d, %d events, %d ms; slowest stabilization %d ms after faults "
                + "ended (seed %d)%n", count, first, events, ms, worstStabilization, worstSeed);
        System.out.println("simulation: " + stats);
        if (count >= 200) {
            for (String kind : List.of("crash", "pause", "leave", "join", "failover", "deposed leader writes refused",
                    "self-fenced at lease deadline", "fenced by the coordinator", "messages dropped",
                    "messages duplicated", "shard_set_changed", "reshard_rollback", "eager seeds",
                    "static restart under a new member id")) {
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
