package io.shardline.chaos;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checker's verdict on one run: named counts, timing distributions, the violations (empty when the run
 * is valid) and notes (facts that are allowed but worth reading). Immutable.
 *
 * @param counts named counts in report order (e.g. {@code lost}, {@code duplicates})
 * @param timings named distributions in report order (e.g. {@code failover.KILL_WORKER})
 * @param violations one line per broken guarantee, with examples
 * @param notes one line per tolerated anomaly (e.g. a record in flight during a SIGSTOP)
 */
public record CheckReport(Map<String, Long> counts, Map<String, Distribution> timings, List<String> violations,
                          List<String> notes) {

    /** Copies, keeping the order. */
    public CheckReport {
        counts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        timings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(timings));
        violations = List.copyOf(violations);
        notes = List.copyOf(notes);
    }

    /** True when no guarantee was broken. */
    public boolean valid() {
        return violations.isEmpty();
    }

    /** A named count, 0 when absent. */
    public long count(String name) {
        return counts.getOrDefault(name, 0L);
    }

    /** A named distribution, empty when absent. */
    public Distribution timing(String name) {
        return timings.getOrDefault(name, Distribution.of(List.of()));
    }

    /** The report as text: counts, timings, notes, then the verdict. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        counts.forEach((k, v) -> sb.append(String.format("  %-34s %d%n", k, v)));
        timings.forEach((k, v) -> sb.append(String.format("  %-34s %s%n", k, v)));
        notes.forEach(n -> sb.append("  note: ").append(n).append('\n'));
        violations.forEach(v -> sb.append("  VIOLATION: ").append(v).append('\n'));
        sb.append(valid() ? "  verdict: VALID" : "  verdict: INVALID (" + violations.size() + " violations)").append('\n');
        return sb.toString();
    }
}
