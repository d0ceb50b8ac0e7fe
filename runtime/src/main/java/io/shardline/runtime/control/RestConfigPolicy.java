package io.shardline.runtime.control;

import io.shardline.api.config.Placeholders;
import io.shardline.runtime.config.WorkerConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a listener configuration that arrived over REST may read on a worker (Kafka's CVE-2024-31141: a REST
 * caller must not read the worker's environment or files through placeholders). A {@code ${env:NAME}} is
 * allowed only when {@code NAME} is in {@code rest.config.allowed.env}, a {@code ${file:path:key}} only when
 * {@code path} is absolute and lies, after following links, in a directory of {@code rest.config.allowed.dirs};
 * any other placeholder is refused. Both lists come from the worker's own file, so only the operator widens
 * them. The same check runs when the configuration is written (400) and again on every worker before it
 * resolves a stored configuration (a worker with a narrower list refuses it: the listener is FAILED there).
 *
 * <p>Immutable and thread-safe.
 */
public final class RestConfigPolicy {

    /** Nothing may be read: every placeholder is refused. */
    public static final RestConfigPolicy NONE = new RestConfigPolicy(Set.of(), List.of());

    private final Set<String> env;
    private final List<Path> dirs;

    /**
     * A policy.
     *
     * @param env the variable names {@code ${env:}} may read
     * @param dirs the directories {@code ${file:}} may read from (absolute)
     */
    public RestConfigPolicy(Collection<String> env, Collection<Path> dirs) {
        this.env = Set.copyOf(new TreeSet<>(env));
        this.dirs = dirs.stream().map(d -> d.toAbsolutePath().normalize()).toList();
    }

    /** The policy of a worker's file. */
    public static RestConfigPolicy of(WorkerConfig config) {
        return new RestConfigPolicy(config.restConfigAllowedEnv(),
                config.restConfigAllowedDirs().stream().map(Path::of).toList());
    }

    /** Every refused placeholder of {@code config}: key to reasons, in key order; empty when all are allowed. */
    public Map<String, List<String>> problems(Map<String, String> config) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        config.forEach((key, value) -> {
            List<String> reasons = problems(value);
            if (!reasons.isEmpty()) {
                out.put(key, reasons);
            }
        });
        return out;
    }

    /** Why the placeholders of {@code value} are refused, one reason each; empty when all are allowed. */
    public List<String> problems(String value) {
        List<String> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        for (Placeholders.Reference ref : Placeholders.references(value)) {
            check(ref).ifPresent(out::add);
        }
        return out;
    }

    private Optional<String> check(Placeholders.Reference ref) {
        String refused = "placeholder " + ref.text() + " is not allowed in a configuration sent over REST: ";
        return switch (ref.provider()) {
            case "env" -> env.contains(ref.argument()) ? Optional.empty()
                    : Optional.of(refused + "add " + (ref.argument().isEmpty() ? "the variable" : ref.argument())
                            + " to " + WorkerConfig.REST_CONFIG_ALLOWED_ENV_CONFIG + " in the worker's file to allow it");
            case "file" -> checkFile(ref, refused);
            default -> Optional.of("unknown placeholder ${" + ref.provider() + ":...}; use ${env:NAME} or "
                    + "${file:path:key}");
        };
    }

    private Optional<String> checkFile(Placeholders.Reference ref, String refused) {
        Optional<String> written = ref.filePath();
        if (written.isEmpty()) {
            return Optional.of(ref.text() + " must be ${file:path:key}");
        }
        Path path;
        try {
            path = Path.of(written.get());
        } catch (InvalidPathException e) {
            return Optional.of(ref.text() + ": not a valid path");
        }
        if (!path.isAbsolute()) {
            return Optional.of(refused + "the path must be absolute (a directory of "
                    + WorkerConfig.REST_CONFIG_ALLOWED_DIRS_CONFIG + ")");
        }
        Path normal = path.normalize();
        Path real = normal;
        if (Files.exists(normal)) {
            try {
                real = normal.toRealPath();
            } catch (IOException e) {
                return Optional.of(refused + "cannot resolve " + normal);
            }
        }
        if (inAllowedDir(normal) && inAllowedDir(real)) {
            return Optional.empty();
        }
        return Optional.of(refused + "add its directory " + normal.getParent() + " to "
                + WorkerConfig.REST_CONFIG_ALLOWED_DIRS_CONFIG + " in the worker's file to allow it"
                + (dirs.isEmpty() ? "" : " (allowed now: " + dirs + ")"));
    }

    private boolean inAllowedDir(Path path) {
        for (Path dir : dirs) {
            Path real = dir;
            try {
                real = Files.exists(dir) ? dir.toRealPath() : dir;
            } catch (IOException e) {
                // compare with the path as configured
            }
            if (path.startsWith(dir) || path.startsWith(real)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "RestConfigPolicy[env=" + new TreeSet<>(env) + ", dirs=" + dirs + "]";
    }
}
