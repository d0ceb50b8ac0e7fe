package io.shardline.chaos;

import java.util.Objects;

/**
 * A fault as it was injected: what, on which target, and when (epoch millis on this host's clock, the same
 * clock the verifying handler uses). Immutable; one line of {@code faults.tsv}.
 *
 * @param kind the fault
 * @param target the worker id, {@code redis}, or {@code all} for a rolling restart
 * @param startMs when the fault began (kill sent, SIGSTOP sent, first SIGTERM sent)
 * @param endMs when it ended (process started again, SIGCONT sent, last worker back)
 */
public record FaultEvent(FaultKind kind, String target, long startMs, long endMs) {

    /** Validates. */
    public FaultEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
        if (endMs < startMs) {
            throw new IllegalArgumentException("fault ends before it starts: " + startMs + " > " + endMs);
        }
    }

    /** True when {@code member} (an id {@code <worker>-<listener>-m<i>}) runs on this fault's target worker. */
    public boolean hits(String member) {
        return member.startsWith(target + "-") || "all".equals(target);
    }

    /** {@code kind target startMs endMs}, tab-separated. */
    public String toLine() {
        return kind + "\t" + target + "\t" + startMs + "\t" + endMs;
    }

    /**
     * Parses {@link #toLine()}.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public static FaultEvent parse(String line) {
        String[] f = line.split("\t", -1);
        if (f.length != 4) {
            throw new IllegalArgumentException("expected 4 tab-separated fields (kind target start end), got " + f.length);
        }
        return new FaultEvent(FaultKind.valueOf(f[0]), f[1], Long.parseLong(f[2]), Long.parseLong(f[3]));
    }
}
