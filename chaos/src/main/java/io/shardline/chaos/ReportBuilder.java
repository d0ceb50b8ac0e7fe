package io.shardline.chaos;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Collects the checker's findings in order; not thread-safe (one per check). */
final class ReportBuilder {

    /** How many examples a violation line names. */
    static final int EXAMPLES = 5;

    private final Map<String, Long> counts = new LinkedHashMap<>();
    private final Map<String, Distribution> timings = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    ReportBuilder count(String name, long value) {
        counts.put(name, value);
        return this;
    }

    ReportBuilder timing(String name, Collection<Long> values) {
        timings.put(name, Distribution.of(values));
        return this;
    }

    /** Records a violation when {@code examples} is not empty: {@code what} plus the count and a few examples. */
    ReportBuilder violationIf(Collection<?> examples, String what) {
        if (!examples.isEmpty()) {
            violations.add(what + ": " + examples.size() + " (e.g. " + sample(examples) + ")");
        }
        return this;
    }

    ReportBuilder violation(String text) {
        violations.add(text);
        return this;
    }

    ReportBuilder note(String text) {
        notes.add(text);
        return this;
    }

    CheckReport build() {
        return new CheckReport(counts, timings, violations, notes);
    }

    static String sample(Collection<?> items) {
        return items.stream().limit(EXAMPLES).map(String::valueOf).collect(Collectors.joining(", "))
                + (items.size() > EXAMPLES ? ", ..." : "");
    }
}
