package io.shardline.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the workers' own logs ({@code workers/<id>/logs/*.log}) say about member leases during a run, next to
 * the checker's verdict (read afterwards; not part of the pure {@link Checker}):
 * <ul>
 *   <li><b>self-fences with shards</b>: a member whose lease ran out while it owned shards (it drops them and
 *       its in-flight records are handled again by the next owner);</li>
 *   <li><b>late renewals</b>: a member logs a renewal that came more than two heartbeat intervals after the
 *       previous one, with the gap: the time it went without a successful heartbeat (e.g. while leadership
 *       moved).</li>
 * </ul>
 * Each finding is attributed to the fault whose window (1 s before it to two session timeouts after it) holds
 * it, or to "no fault". Stateless.
 */
final class WorkerLogs {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");
    private static final Pattern LINE = Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}) .*");
    private static final Pattern FENCE = Pattern.compile("Member (\\S+): fencing itself, dropping \\[([^\\]]+)\\]");
    private static final Pattern LATE = Pattern.compile("Member (\\S+): lease renewed by \\S+ after (\\d+) ms");

    /** One finding: when, which member, and the gap (late renewals) or the shards dropped (self-fences). */
    record Finding(long atMs, String member, long gapMs, String detail) {
    }

    /** The findings of a run directory, in file order. */
    record Summary(List<Finding> selfFences, List<Finding> lateRenewals) {
    }

    private WorkerLogs() {
    }

    /** Reads every worker log under {@code runDir/workers}; an absent directory gives an empty summary. */
    static Summary read(Path runDir, ZoneId zone) throws IOException {
        List<Finding> fences = new ArrayList<>();
        List<Finding> late = new ArrayList<>();
        Path workers = runDir.resolve("workers");
        if (!Files.isDirectory(workers)) {
            return new Summary(fences, late);
        }
        List<Path> logs;
        try (Stream<Path> s = Files.walk(workers)) {
            logs = s.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList();
        }
        for (Path log : logs) {
            try (Stream<String> lines = Files.lines(log)) {
                lines.forEach(line -> parse(line, zone, fences, late));
            }
        }
        return new Summary(fences, late);
    }

    static void parse(String line, ZoneId zone, List<Finding> fences, List<Finding> late) {
        Matcher at = LINE.matcher(line);
        if (!at.matches()) {
            return;
        }
        long atMs = LocalDateTime.parse(at.group(1), TIME).atZone(zone).toInstant().toEpochMilli();
        Matcher f = FENCE.matcher(line);
        if (f.find()) {
            fences.add(new Finding(atMs, f.group(1), 0, f.group(2)));
            return;
        }
        Matcher l = LATE.matcher(line);
        if (l.find()) {
            late.add(new Finding(atMs, l.group(1), Long.parseLong(l.group(2)), ""));
        }
    }

    /** Report lines: per fault kind (and "no fault"), self-fences with shards and the longest renewal gap. */
    static List<String> render(Summary summary, List<FaultEvent> faults, long sessionTimeoutMs) {
        Map<FaultKind, long[]> byKind = new EnumMap<>(FaultKind.class);
        long[] outside = new long[3];
        for (Finding f : summary.selfFences()) {
            bucket(f, faults, sessionTimeoutMs, byKind, outside)[0]++;
        }
        for (Finding f : summary.lateRenewals()) {
            long[] b = bucket(f, faults, sessionTimeoutMs, byKind, outside);
            b[1]++;
            b[2] = Math.max(b[2], f.gapMs());
        }
        List<String> lines = new ArrayList<>();
        byKind.forEach((kind, b) -> lines.add(line(kind.name(), b)));
        lines.add(line("no fault", outside));
        return lines;
    }

    private static long[] bucket(Finding f, List<FaultEvent> faults, long sessionTimeoutMs,
                                 Map<FaultKind, long[]> byKind, long[] outside) {
        Optional<FaultEvent> fault = faults.stream()
                .filter(e -> f.atMs() >= e.startMs() - FailoverAnalysis.BEFORE_MS
                        && f.atMs() <= e.endMs() + 2 * sessionTimeoutMs)
                .findFirst();
        return fault.map(e -> byKind.computeIfAbsent(e.kind(), k -> new long[3])).orElse(outside);
    }

    private static String line(String window, long[] b) {
        return String.format("  lease: %-16s self-fences with shards %d, renewals later than 2 heartbeats %d"
                + " (longest gap %d ms)", window, b[0], b[1], b[2]);
    }
}
