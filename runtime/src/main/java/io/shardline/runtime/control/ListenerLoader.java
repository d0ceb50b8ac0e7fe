package io.shardline.runtime.control;

import io.shardline.api.config.ConfigError;
import io.shardline.api.config.ConfigException;
import io.shardline.api.config.Placeholders;
import io.shardline.api.config.RawConfig;
import io.shardline.runtime.listener.ListenerConfig;
import io.shardline.runtime.listener.ListenerDefinition;
import io.shardline.runtime.plugin.Plugins;
import io.shardline.runtime.retention.SharedStreams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads listener files ({@code <dir>/*.properties}, one listener each, named after the file) and stored listeners,
 * and has each checked by the one {@link ListenerConfigValidator} (the listener keys against
 * {@link ListenerConfig#DEFINITION}, the handler and assignor names against the loaded plugins, the
 * {@code handler.config.*} keys against the handler's own definition), then the rules of listeners sharing a stream
 * ({@link SharedStreams}). Every problem of every file is reported at once, with file, line, key and value, in the
 * same form as worker configuration errors; a listener with errors is not started, the others are. Stateless.
 */
public final class ListenerLoader {

    /** The valid listeners and the errors of the invalid ones. */
    public record Result(List<ListenerDefinition> listeners, List<ConfigError> errors) {

        /** Throws a {@link ConfigException} listing every error, if there is any. */
        public Result throwIfInvalid() {
            if (!errors.isEmpty()) {
                throw new ConfigException(errors);
            }
            return this;
        }
    }

    private ListenerLoader() {
    }

    /** Loads every {@code *.properties} file in {@code dir} (none when the folder does not exist). */
    public static Result loadAll(Path dir, Plugins plugins, Placeholders placeholders) {
        if (!Files.isDirectory(dir)) {
            return new Result(List.of(), List.of());
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".properties")).sorted().toList();
        } catch (IOException e) {
            return new Result(List.of(), List.of(new ConfigError(null, null, dir.toString(), 0,
                    "cannot list the listener folder: " + e.getMessage())));
        }
        List<ListenerDefinition> listeners = new ArrayList<>();
        List<ConfigError> errors = new ArrayList<>();
        for (Path file : files) {
            List<ConfigError> fileErrors = new ArrayList<>();
            load(file, plugins, placeholders, fileErrors).ifPresent(listeners::add);
            errors.addAll(fileErrors);
        }
        return sharedStreamRules(listeners, errors);
    }

    /**
     * Listeners sharing a stream must agree ({@link SharedStreams}: no ack-delete beside another group, one retention
     * per stream): each listener that breaks a rule is reported, with its file, key and the other listener, and not
     * started.
     */
    private static Result sharedStreamRules(List<ListenerDefinition> listeners, List<ConfigError> errors) {
        java.util.Map<String, java.util.Map<String, String>> raw = new java.util.TreeMap<>();
        for (ListenerDefinition d : listeners) {
            raw.put(d.name(), d.rawConfig());
        }
        List<ListenerDefinition> valid = new ArrayList<>();
        for (ListenerDefinition d : listeners) {
            List<SharedStreams.Problem> problems = SharedStreams.problems(d.name(), raw.get(d.name()), raw);
            for (SharedStreams.Problem p : problems) {
                int line = d.config().values().raw().get(p.key()).map(RawConfig.RawValue::line).orElse(0);
                errors.add(new ConfigError(p.key(), p.value(), d.file().toString(), line, p.message()));
            }
            if (problems.isEmpty()) {
                valid.add(d);
            }
        }
        return new Result(List.copyOf(valid), List.copyOf(errors));
    }

    /** Loads one listener file; errors go to {@code errors}. */
    public static Optional<ListenerDefinition> load(Path file, Plugins plugins, Placeholders placeholders, List<ConfigError> errors) {
        String fileName = file.getFileName().toString();
        String name = fileName.endsWith(".properties") ? fileName.substring(0, fileName.length() - ".properties".length()) : fileName;
        if (!ListenerConfigValidator.validName(name)) {
            errors.add(new ConfigError(null, null, file.toString(), 0,
                    "the listener name (file name '" + name + "') must be 1-128 letters, digits, '.', '_' or '-'"));
            return Optional.empty();
        }
        return validator(plugins).definition(name, RawConfig.load(file), file, placeholders, errors)
                .map(d -> d.withRevision(modifiedMs(file)));
    }

    /** The file's modification time in ms: the revision of a file's definition (newest wins in the group). */
    private static long modifiedMs(Path file) {
        try {
            return Math.max(0, Files.getLastModifiedTime(file).toMillis());
        } catch (java.io.IOException e) {
            return 0;
        }
    }

    /**
     * Validates a listener stored in Redis (created over REST): the same checks as a file, placeholders
     * resolved now, on this worker. Its {@link ListenerDefinition#file()} is {@link #storedSource(String)}.
     */
    public static Optional<ListenerDefinition> fromStored(String name, java.util.Map<String, String> config,
                                                          Plugins plugins, Placeholders placeholders,
                                                          List<ConfigError> errors) {
        if (!ListenerConfigValidator.validName(name)) {
            errors.add(new ConfigError(null, null, name, 0,
                    "the listener name '" + name + "' must be 1-128 letters, digits, '.', '_' or '-'"));
            return Optional.empty();
        }
        return validator(plugins).definition(name, RawConfig.of(config), storedSource(name), placeholders, errors);
    }

    /** The pseudo path naming a stored listener's origin ({@code rest/<name>}) in definitions and errors. */
    public static Path storedSource(String name) {
        return Path.of("rest", name);
    }

    private static ListenerConfigValidator validator(Plugins plugins) {
        return new ListenerConfigValidator(plugins, ListenerConfig.DEFINITION);
    }
}
