package io.shardline.chaos;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code bin/chaos}: runs the chaos suite (or re-checks an old run) and exits 0 when the run is valid, 1 on
 * any violation, 2 on bad usage, when the run could not be set up, or when fault injection stopped early
 * (e.g. a restarted worker did not join; what happened until then is still checked).
 */
@Command(name = "chaos",
        mixinStandardHelpOptions = true,
        description = "Kills, pauses and restarts Shardline workers and Redis under a steady load, then checks that "
                + "nothing was lost, no shard had two owners, no stale owner's ack was accepted and order held "
                + "(per shard, and per key across changes of the shard count: --reshards). "
                + "Prints the seed; --seed N replays the same fault schedule.")
public final class ChaosRunner implements Callable<Integer> {

    @Option(names = "--seed", description = "Seed of the fault schedule (default: random, printed).")
    private Long seed;

    @Option(names = "--duration", defaultValue = "2m", description = "How long to inject faults: 90s, 5m, 30m, 1h (default ${DEFAULT-VALUE}).")
    private String duration;

    @Option(names = "--workers", defaultValue = "3", description = "Worker processes (default ${DEFAULT-VALUE}).")
    private int workers;

    @Option(names = "--shards", defaultValue = "32", description = "Shards of the stream (default ${DEFAULT-VALUE}).")
    private int shards;

    @Option(names = "--rate", defaultValue = "200", description = "Records per second (default ${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = "--faults", split = ",", description = "Fault kinds to draw from (default: all but the "
            + "reshardings, which --reshards schedules): ${COMPLETION-CANDIDATES}.")
    private List<FaultKind> faults = new ArrayList<>();

    @Option(names = "--session-timeout-ms", defaultValue = "3000", description = "Workers' session.timeout.ms (default ${DEFAULT-VALUE}).")
    private int sessionTimeoutMs;

    @Option(names = "--heartbeat-ms", defaultValue = "500", description = "Workers' heartbeat.interval.ms (default ${DEFAULT-VALUE}).")
    private int heartbeatMs;

    @Option(names = "--max-concurrency", defaultValue = "4", description = "Listener max.concurrency (default ${DEFAULT-VALUE}).")
    private int maxConcurrency;

    @Option(names = "--batch-size", defaultValue = "10", description = "Listener batch.size (default ${DEFAULT-VALUE}).")
    private int batchSize;

    @Option(names = "--work-ms", defaultValue = "1", description = "Simulated work per record in ms (default ${DEFAULT-VALUE}).")
    private long workMs;

    @Option(names = "--dist", description = "The unpacked distribution (default: dist/target/shardline-*/ under the source tree).")
    private Path dist;

    @Option(names = "--work-dir", description = "Where to write configs, logs and the report (default: a new temp dir).")
    private Path workDir;

    @Option(names = "--worker-java-opts", defaultValue = "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xss512k",
            description = "JAVA_OPTS of the worker JVMs (default: ${DEFAULT-VALUE}).")
    private String workerJavaOpts;

    @Option(names = "--kills", defaultValue = "0", description = "Stop after this many kill -9 of workers and leaders "
            + "(0: no target); with --pauses, a kind whose target is met is no longer drawn.")
    private int kills;

    @Option(names = "--pauses", defaultValue = "0", description = "Stop after this many SIGSTOP pauses (0: no target).")
    private int pauses;

    @Option(names = "--reshards", defaultValue = "0", description = "Changes of the stream's shard count, spread evenly "
            + "over the run through POST /streams/{s}/reshard (every second one rolled back while it runs); each starts "
            + "right before a drawn fault, which hits while it runs (default ${DEFAULT-VALUE}).")
    private int reshards;

    @Option(names = "--keys", defaultValue = "1000", description = "Key space: record n has key k<n mod keys>, so keys "
            + "recur and move shards at a resharding; 0: every record its own key (default ${DEFAULT-VALUE}).")
    private int keys;

    @Option(names = "--check", paramLabel = "RUN_DIR", description = "Only re-check the run in RUN_DIR.")
    private Path check;

    @Override
    public Integer call() throws Exception {
        if (check != null) {
            return ChaosRun.checkAndReport(check, System.out).valid() ? 0 : 1;
        }
        long s = seed != null ? seed : new SecureRandom().nextLong() & Long.MAX_VALUE;
        Set<FaultKind> kinds = EnumSet.allOf(FaultKind.class);
        kinds.removeIf(FaultKind::reshard); // scheduled by --reshards
        kinds = faults.isEmpty() ? kinds : EnumSet.copyOf(faults);
        Path home = dist != null ? dist : findDistribution();
        Path dir = workDir != null ? workDir : Files.createTempDirectory("shardline-chaos-" + s + "-");
        ChaosSettings settings = new ChaosSettings(s, parseDuration(duration), workers, shards, rate, kinds,
                sessionTimeoutMs, heartbeatMs, maxConcurrency, batchSize, workMs, home, dir, workerJavaOpts, kills, pauses,
                keys, reshards);
        ChaosRun run = new ChaosRun(settings, System.out);
        CheckReport report = run.run();
        System.out.println("chaos: replay with: bin/chaos --seed " + s + " --duration " + duration
                + (faults.isEmpty() ? "" : " --faults " + String.join(",", faults.stream().map(Enum::name).toList()))
                + (kills > 0 ? " --kills " + kills : "") + (pauses > 0 ? " --pauses " + pauses : "")
                + (reshards > 0 ? " --reshards " + reshards : "") + (keys != 1000 ? " --keys " + keys : ""));
        if (!report.valid()) {
            return 1;
        }
        return run.aborted().isPresent() ? 2 : 0;
    }

    /** Parses {@code 90s}, {@code 5m}, {@code 1h}, {@code 1500ms} or plain seconds. */
    static long parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("ms")) {
                return Long.parseLong(t.substring(0, t.length() - 2));
            }
            long unit = t.endsWith("h") ? 3_600_000 : t.endsWith("m") ? 60_000 : 1_000;
            String digits = Character.isDigit(t.charAt(t.length() - 1)) ? t : t.substring(0, t.length() - 1);
            return Long.parseLong(digits) * unit;
        } catch (RuntimeException e) {
            throw new CommandLine.ParameterException(new CommandLine(new ChaosRunner()),
                    "--duration: expected a duration like 90s, 5m, 30m or 1h, got '" + text + "'");
        }
    }

    /** The distribution built in this source tree: {@code dist/target/shardline-<version>/}. */
    static Path findDistribution() throws java.io.IOException {
        Path root = Path.of(System.getProperty("shardline.home", ".")).toAbsolutePath();
        for (Path base : List.of(root, root.resolve(".."))) {
            Path target = base.resolve("dist/target");
            if (Files.isDirectory(target)) {
                try (Stream<Path> s = Files.list(target)) {
                    var found = s.filter(p -> p.getFileName().toString().startsWith("shardline-")
                            && Files.isDirectory(p) && Files.exists(p.resolve("bin/start-worker"))).findFirst();
                    if (found.isPresent()) {
                        return found.get().normalize();
                    }
                }
            }
        }
        throw new IllegalArgumentException("no distribution under " + root.resolve("dist/target")
                + "; build it with: mvn -B -ntp -DskipTests package (or pass --dist DIR)");
    }

    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new ChaosRunner());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            System.err.println("chaos: " + e.getMessage());
            return 2;
        });
        System.exit(cli.execute(args));
    }
}
