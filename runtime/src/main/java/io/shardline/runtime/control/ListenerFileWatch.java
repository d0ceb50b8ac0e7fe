package io.shardline.runtime.control;

import io.shardline.api.config.ConfigException;
import io.shardline.api.config.RawConfig;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells when the listener files in {@code listeners.dir} no longer match what the worker runs. A worker reads its
 * listener files when it starts (docs/operations.md, "Upgrades and rolling restarts"), so a file edited, added or
 * removed afterwards is not applied until it restarts; this watch makes that visible instead of silent: each
 * {@link #check} compares the folder with the definitions the worker started with (key by key, so comments and
 * order do not count) and returns one message per difference not reported yet, naming the file, the changed keys
 * and what to do. A file changed back is forgotten, so a later change is reported again. Not thread-safe: one
 * caller at a time; {@link #check} does blocking file I/O ({@link #start} runs it on a worker thread, in order).
 */
public final class ListenerFileWatch {

    /** How often a worker looks at its listener files. */
    public static final long INTERVAL_MS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(ListenerFileWatch.class);
    private static final String SUFFIX = ".properties";
    private static final String APPLY = "restart this worker to apply it, and change the file the same way on every "
            + "worker (docs/operations.md, \"Upgrades and rolling restarts\"); a listener defined over REST "
            + "(PUT /listeners/{name}/config) changes without a restart";

    private final Path dir;
    private final Map<String, Map<String, String>> started;
    /** File name to the content last reported for it (null: reported missing). */
    private final Map<String, Map<String, String>> reported = new TreeMap<>();

    /**
     * A watch of {@code dir}.
     *
     * @param started the raw configuration of each listener file the worker runs, by listener name
     */
    public ListenerFileWatch(Path dir, Map<String, Map<String, String>> started) {
        this.dir = Objects.requireNonNull(dir, "dir");
        this.started = Map.copyOf(started);
    }

    /**
     * Checks every {@code intervalMs} on a worker thread of {@code vertx} and logs each new difference as a warning;
     * returns the timer id ({@code vertx.cancelTimer} stops it).
     */
    public long start(Vertx vertx, long intervalMs) {
        return vertx.setPeriodic(intervalMs, intervalMs, id -> vertx.executeBlocking(this::check, true)
                .onSuccess(messages -> messages.forEach(LOG::warn))
                .onFailure(e -> LOG.debug("Listener files not checked: {}", e.toString())));
    }

    /** The differences between the folder and the running file listeners that were not reported yet. */
    public List<String> check() {
        Map<String, Map<String, String>> now = read();
        Set<String> names = new TreeSet<>(started.keySet());
        names.addAll(now.keySet());
        List<String> out = new ArrayList<>();
        for (String name : names) {
            Map<String, String> was = started.get(name);
            Map<String, String> is = now.get(name);
            if (Objects.equals(was, is)) {
                reported.remove(name);
                continue;
            }
            if (reported.containsKey(name) && Objects.equals(reported.get(name), is)) {
                continue;
            }
            reported.put(name, is);
            Path file = dir.resolve(name + SUFFIX);
            if (was == null) {
                out.add("Listener file " + file + " was added after this worker started; listener '" + name
                        + "' does not run here until the worker restarts: " + APPLY);
            } else if (is == null) {
                out.add("Listener file " + file + " was removed after this worker started; listener '" + name
                        + "' keeps running here until the worker restarts: " + APPLY);
            } else {
                out.add("Listener file " + file + " changed after this worker started (" + changedKeys(was, is)
                        + "); listener '" + name + "' still runs its old definition here: " + APPLY);
            }
        }
        return out;
    }

    private static String changedKeys(Map<String, String> was, Map<String, String> is) {
        Set<String> keys = new TreeSet<>(was.keySet());
        keys.addAll(is.keySet());
        keys.removeIf(k -> Objects.equals(was.get(k), is.get(k)));
        return (keys.size() == 1 ? "key " : "keys ") + String.join(", ", keys);
    }

    /** Listener name to raw configuration of every readable file; an unreadable file counts as changed. */
    private Map<String, Map<String, String>> read() {
        Map<String, Map<String, String>> out = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(SUFFIX)).sorted().toList();
        } catch (IOException e) {
            return Map.copyOf(started); // cannot tell: report nothing
        }
        for (Path file : files) {
            String fileName = file.getFileName().toString();
            String name = fileName.substring(0, fileName.length() - SUFFIX.length());
            try {
                Map<String, String> config = new TreeMap<>();
                RawConfig.load(file).values().forEach((k, v) -> config.put(k, v.text()));
                out.put(name, config);
            } catch (ConfigException e) {
                out.put(name, Map.of("(unreadable)", e.getMessage()));
            }
        }
        return out;
    }
}
