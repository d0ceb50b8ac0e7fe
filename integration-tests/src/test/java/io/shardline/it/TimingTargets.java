package io.shardline.it;

import java.lang.management.ManagementFactory;

/**
 * Timing bounds of the multi-process tests, each derived from the configured timeouts by the caller. A missed
 * bound fails, except on a machine so overloaded (load average above twice the cores) that the figure says more
 * about the load than about Shardline: then it is printed as missed, unless {@code -Dshardline.it.strict=true}.
 * {@code -Dshardline.it.slack.ms=N} widens every bound (default 0). Stateless.
 */
final class TimingTargets {

    private static final long SLACK_MS = Long.getLong("shardline.it.slack.ms", 0);

    private TimingTargets() {
    }

    /** Fails when {@code ms} exceeds {@code targetMs} (plus the slack), as the class describes. */
    static void assertTarget(String what, long ms, long targetMs) {
        if (ms <= targetMs + SLACK_MS) {
            return;
        }
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        int cores = Runtime.getRuntime().availableProcessors();
        if (load > 2.0 * cores && !Boolean.getBoolean("shardline.it.strict")) {
            System.out.printf("FIGURE target missed under load average %.1f on %d cores: %s: %d ms > %d ms%n", load,
                    cores, what, ms, targetMs);
            return;
        }
        throw new AssertionError(what + ": " + ms + " ms > " + targetMs + " ms (+ slack " + SLACK_MS
                + " ms; load average " + load + ")");
    }
}
