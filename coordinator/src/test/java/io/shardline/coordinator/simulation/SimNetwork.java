package io.shardline.coordinator.simulation;

import java.util.Random;
import java.util.function.Supplier;

/**
 * The simulated network: every message is delivered after a random delay; while faulty, messages are also
 * dropped, duplicated and (through independent delays) reordered.
 */
final class SimNetwork {

    private final Scheduler scheduler;
    private final Random random;
    private final double dropRate;
    private final double duplicateRate;
    private final int faultyMaxDelayMs;
    private final int quietMaxDelayMs;
    private boolean faulty = true;
    private long dropped;
    private long duplicated;

    SimNetwork(Scheduler scheduler, Random random, double dropRate, double duplicateRate, int faultyMaxDelayMs,
            int quietMaxDelayMs) {
        this.scheduler = scheduler;
        this.random = random;
        this.dropRate = dropRate;
        this.duplicateRate = duplicateRate;
        this.faultyMaxDelayMs = faultyMaxDelayMs;
        this.quietMaxDelayMs = quietMaxDelayMs;
    }

    void heal() {
        faulty = false;
    }

    void send(Supplier<String> label, Runnable deliver) {
        if (faulty && random.nextDouble() < dropRate) {
            dropped++;
            scheduler.note(() -> "drop " + label.get());
            return;
        }
        scheduler.after(delay(), label, deliver);
        if (faulty && random.nextDouble() < duplicateRate) {
            duplicated++;
            scheduler.after(delay(), () -> label.get() + " (duplicate)", deliver);
        }
    }

    private int delay() {
        return 1 + random.nextInt(faulty ? faultyMaxDelayMs : quietMaxDelayMs);
    }

    long dropped() {
        return dropped;
    }

    long duplicated() {
        return duplicated;
    }
}
