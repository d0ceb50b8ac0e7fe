package io.shardline.chaos;

import java.util.Objects;

/**
 * A fault as it was injected: what, on which target, and when (epoch millis on this host's clock, the same
 * clock the verifying handler uses). Immutable; one line of {@code faults.tsv}.
 *
 * @param kind the fault
 * @param target the worker id, {@code redis}, or {@code all} for a rolling restart
 * @param startMs when the fault began (kill sent, SIGSTOP sent, first SIGTERM sent): the target ran normally
 *     until at least then
 * @param endMs when it ended (process started again, SIGCONT sent, last worker back)
 * @param inEffectMs by when the fault had surely taken effect: the {@code kill -9} or {@code kill -STOP} command
 *     had returned, so the process was dead or stopped from then on (it took effect somewhere in
 *     {@code [startMs, inEffectMs]}); for faults logged without it (the first {@code faults.tsv} format) and
 *     faults it does not apply to, {@code endMs}
 */
public record FaultEvent(FaultKind kind, String target, long startMs, long endMs, long inEffectMs) {

    /** Validates. */
    public FaultEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
        if (endMs < startMs) {
            throw new IllegalArgumentException("fault ends before it starts: " + startMs + " > " + endMs);
        }
        if (inEffectMs < startMs || inEffectMs > endMs) {
            throw new IllegalArgumentException("fault takes effect outside [start, end]: " + inEffectMs + " not in ["
                    + startMs + ", " + endMs + "]");
        }
    }

    /** A fault whose moment of effect is not known more precisely than its end. */
    public FaultEvent(FaultKind kind, String target, long startMs, long endMs) {
        this(kind, target, startMs, endMs, endMs);
    }

    /** True when {@code member} (an id {@code <worker>-<listener>-m<i>}) runs on this fault's target worker. */
    public boolean hits(String member) {
        return member.startsWith(target + "-") || "all".equals(target);
    }

    /** {@code kind target startMs endMs inEffectMs}, tab-separated. */
    public String toLine() {
        return kind + "\t" + target + "\t" + startMs + "\t" + endMs + "\t" + inEffectMs;
    }

    /**
     * Parses {@link #toLine()}, or a line of the first format without {@code inEffectMs}.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static FaultEvent parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 5 && f.length != 4) {
            throw new IllegalArgumentException("expected 5 tab-separated fields (kind target start end in-effect), got "
                    + f.length);
        }
        long end = Long.parseLong(f[3]);
        return new FaultEvent(FaultKind.valueOf(f[0]), f[1], Long.parseLong(f[2]), end,
                f.length == 5 ? Long.parseLong(f[4]) : end);
    }
}
