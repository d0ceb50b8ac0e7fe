package io.shardline.chaos;

import io.shardline.chaos.verifying.HandlingLine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The files of a run directory, so that a run can be checked again later ({@code bin/chaos --check DIR}):
 * {@code run.properties} (runs before resharding have no {@code keys} and {@code shards.at.end}: every record its
 * own key, no shard retired), {@code produced.tsv}, {@code indeterminate.txt}, {@code faults.tsv},
 * {@code redis-state.tsv} (written by the runner) and {@code handled/*.tsv} (written by the verifying
 * handlers inside the workers).
 */
public final class HistoryFiles {

    private HistoryFiles() {
    }

    /** Writes what the runner knows (everything but the handling logs). */
    static void write(Path dir, History h) throws IOException {
        Properties run = new Properties();
        run.setProperty("stream", h.stream());
        run.setProperty("in.flight.per.worker", Integer.toString(h.inFlightPerWorker()));
        run.setProperty("session.timeout.ms", Long.toString(h.sessionTimeoutMs()));
        run.setProperty("dead.lettered", Long.toString(h.deadLettered()));
        run.setProperty("keys", Integer.toString(h.keys()));
        run.setProperty("shards.at.end", Integer.toString(h.shardsAtEnd()));
        try (var out = Files.newBufferedWriter(dir.resolve("run.properties"))) {
            run.store(out, "chaos run");
        }
        Files.write(dir.resolve("produced.tsv"), h.produced().stream()
                .map(p -> p.shard() + "\t" + p.seq() + "\t" + p.entryId() + "\t" + p.ackedAtMs()).toList());
        Files.write(dir.resolve("indeterminate.txt"), h.indeterminate().stream().sorted().map(String::valueOf).toList());
        Files.write(dir.resolve("faults.tsv"), h.faults().stream().map(FaultEvent::toLine).toList());
        Files.write(dir.resolve("redis-state.tsv"), h.shards().values().stream()
                .map(s -> s.shard() + "\t" + (s.lastDelivered() == null ? "-" : s.lastDelivered()) + "\t"
                        + join(s.entries()) + "\t" + join(s.pending()))
                .toList());
    }

    /**
     * Reads a run directory back.
     *
     * @throws IllegalArgumentException naming the file and line of a malformed line (torn last lines of a
     *     handling log, without their newline or malformed, are skipped: the worker died in the middle of a
     *     write, and that batch was not acked)
     */
    public static History read(Path dir) throws IOException {
        Properties run = new Properties();
        try (var in = Files.newBufferedReader(dir.resolve("run.properties"))) {
            run.load(in);
        }
        List<Produced> produced = new ArrayList<>();
        for (String[] f : lines(dir.resolve("produced.tsv"), 4)) {
            produced.add(new Produced(Integer.parseInt(f[0]), Long.parseLong(f[1]), EntryId.parse(f[2]),
                    Long.parseLong(f[3])));
        }
        Set<Long> indeterminate = new HashSet<>();
        Files.readAllLines(dir.resolve("indeterminate.txt")).stream().filter(l -> !l.isBlank())
                .forEach(l -> indeterminate.add(Long.parseLong(l.trim())));
        List<FaultEvent> faults = Files.readAllLines(dir.resolve("faults.tsv")).stream().filter(l -> !l.isBlank())
                .map(FaultEvent::parse).toList();
        Map<Integer, ShardState> shards = new TreeMap<>();
        for (String[] f : lines(dir.resolve("redis-state.tsv"), 4)) {
            shards.put(Integer.parseInt(f[0]), new ShardState(Integer.parseInt(f[0]), ids(f[2]), new HashSet<>(ids(f[3])),
                    "-".equals(f[1]) ? null : EntryId.parse(f[1])));
        }
        return new History(run.getProperty("stream"), produced, indeterminate, handlings(dir.resolve("handled")),
                faults, shards, Long.parseLong(run.getProperty("dead.lettered")),
                Integer.parseInt(run.getProperty("in.flight.per.worker")),
                Long.parseLong(run.getProperty("session.timeout.ms")), Integer.parseInt(run.getProperty("keys", "0")),
                Integer.parseInt(run.getProperty("shards.at.end", Integer.toString(shards.size()))));
    }

    /** Every handling-log line under {@code dir}, file by file (sorted by name), each file in order. */
    static List<HandlingLine> handlings(Path dir) throws IOException {
        List<HandlingLine> all = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return all;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".tsv")).sorted().toList();
        }
        for (Path file : files) {
            String text = Files.readString(file);
            List<String> lines = text.lines().toList();
            if (!text.isEmpty() && !text.endsWith("\n")) {
                // a torn last line (the worker was killed during the write; that batch was not acked); it may
                // still parse, e.g. as a line of the first format when cut after its tenth field
                lines = lines.subList(0, lines.size() - 1);
            }
            for (int i = 0; i < lines.size(); i++) {
                try {
                    all.add(HandlingLine.parse(lines.get(i)));
                } catch (IllegalArgumentException e) {
                    if (i < lines.size() - 1) {
                        throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
                    }
                    // a torn last line: the worker was killed during the write; that batch was not acked
                }
            }
        }
        return all;
    }

    private static List<String[]> lines(Path file, int fields) throws IOException {
        List<String> text = Files.readAllLines(file);
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (text.get(i).isBlank()) {
                continue;
            }
            String[] f = text.get(i).split("\t", -1);
            if (f.length != fields) {
                throw new IllegalArgumentException(file + ":" + (i + 1) + ": expected " + fields + " fields, got " + f.length);
            }
            out.add(f);
        }
        return out;
    }

    private static String join(Collection<EntryId> ids) {
        return ids.stream().sorted().map(EntryId::toString).collect(Collectors.joining(","));
    }

    private static List<EntryId> ids(String text) {
        return text.isEmpty() ? List.of() : Stream.of(text.split(",")).map(EntryId::parse).toList();
    }
}
