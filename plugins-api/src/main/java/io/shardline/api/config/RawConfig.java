package io.shardline.api.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Configuration text before parsing: each key's raw value with the file and line it came from,
 * plus the problems found while reading (duplicate keys, bad escapes). Values still contain
 * {@code ${...}} placeholders; {@link ConfigDef#parse(RawConfig)} resolves them.
 *
 * <p>Files use the {@link Properties} format (UTF-8; {@code #}/{@code !} comments, {@code =},
 * {@code :} or blank separators, backslash continuations); the line of a key is the line on which
 * its entry starts. A key given twice is an error.
 *
 * <p>Immutable.
 */
public final class RawConfig {

    /**
     * One key's text and origin.
     *
     * @param key the key
     * @param text the value as written (escapes processed, placeholders not resolved)
     * @param file the file it came from, or {@code null}
     * @param line 1-based line, or {@code 0} when unknown
     */
    public record RawValue(String key, String text, String file, int line) {
        /** Validates required fields. */
        public RawValue {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(text, "text");
        }
    }

    private final Map<String, RawValue> values;
    private final String file;
    private final Path baseDir;
    private final List<ConfigError> errors;

    private RawConfig(Map<String, RawValue> values, String file, Path baseDir, List<ConfigError> errors) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.file = file;
        this.baseDir = baseDir;
        this.errors = List.copyOf(errors);
    }

    /**
     * Reads a properties file.
     *
     * @throws ConfigException with one error naming the file when it cannot be read
     */
    public static RawConfig load(Path path) {
        String content;
        try {
            content = Files.readString(path, StandardCharsets.UTF_8);
        } catch (MalformedInputException e) {
            throw new ConfigException(List.of(new ConfigError(null, null, path.toString(), 0,
                    "cannot read the file: it is not valid UTF-8")));
        } catch (IOException e) {
            String why = Files.exists(path) ? "cannot read the file (" + e + ")" : "the file does not exist";
            throw new ConfigException(List.of(new ConfigError(null, null, path.toString(), 0, why)));
        }
        Path parent = path.toAbsolutePath().getParent();
        return parse(content, path.toString(), parent);
    }

    /**
     * Parses properties text.
     *
     * @param content the text
     * @param file the name used in errors, or {@code null}
     * @param baseDir the directory relative {@code ${file:...}} paths are resolved against, or
     *     {@code null} for the working directory
     */
    public static RawConfig parse(String content, String file, Path baseDir) {
        Map<String, RawValue> values = new LinkedHashMap<>();
        List<ConfigError> errors = new ArrayList<>();
        List<String> lines = content.lines().toList();
        int i = 0;
        while (i < lines.size()) {
            int startLine = i + 1;
            String first = lines.get(i).stripLeading();
            if (first.isEmpty() || first.charAt(0) == '#' || first.charAt(0) == '!') {
                i++;
                continue;
            }
            StringBuilder logical = new StringBuilder(lines.get(i));
            while (endsWithContinuation(lines.get(i)) && i + 1 < lines.size()) {
                i++;
                logical.append('\n').append(lines.get(i));
            }
            i++;
            parseEntry(logical.toString(), file, startLine, values, errors);
        }
        return new RawConfig(values, file, baseDir, errors);
    }

    /**
     * Values without a file (e.g. from a REST request or a test), ordered by key so that errors come
     * in a stable order; placeholders resolve against the working directory.
     */
    public static RawConfig of(Map<String, String> map) {
        Map<String, RawValue> values = new LinkedHashMap<>();
        new TreeMap<>(map).forEach((k, v) -> values.put(k, new RawValue(k, v, null, 0)));
        return new RawConfig(values, null, null, List.of());
    }

    /** The value of {@code key} as written, if present. */
    public Optional<RawValue> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /** All values in file order. */
    public Map<String, RawValue> values() {
        return values;
    }

    /** The file name used in errors, or {@code null}. */
    public String file() {
        return file;
    }

    /** The directory relative {@code ${file:...}} paths resolve against, or {@code null} for the working directory. */
    public Path baseDir() {
        return baseDir;
    }

    /** Problems found while reading: duplicate keys, malformed escapes. */
    public List<ConfigError> errors() {
        return errors;
    }

    /**
     * The keys that start with {@code prefix}, with the prefix removed, keeping file and line
     * (e.g. {@code handler.} settings checked by a plugin's own {@link ConfigDef}).
     */
    public RawConfig subset(String prefix) {
        Map<String, RawValue> sub = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix) && k.length() > prefix.length()) {
                String stripped = k.substring(prefix.length());
                sub.put(stripped, new RawValue(stripped, v.text(), v.file(), v.line()));
            }
        });
        return new RawConfig(sub, file, baseDir, List.of());
    }

    @Override
    public String toString() {
        return "RawConfig[file=" + file + ", keys=" + values.keySet() + "]";
    }

    private static void parseEntry(String logical, String file, int line,
                                   Map<String, RawValue> values, List<ConfigError> errors) {
        Properties one = new Properties();
        try {
            one.load(new StringReader(logical));
        } catch (IllegalArgumentException | IOException e) {
            errors.add(new ConfigError(null, null, file, line, "malformed entry: " + e.getMessage()));
            return;
        }
        for (String key : one.stringPropertyNames()) {
            String text = one.getProperty(key);
            if (key.isEmpty()) {
                errors.add(new ConfigError(null, null, file, line, "entry without a key"));
                continue;
            }
            RawValue previous = values.get(key);
            if (previous != null) {
                errors.add(new ConfigError(key, null, file, line,
                        "set twice (first on line " + previous.line() + "); remove one"));
                continue;
            }
            values.put(key, new RawValue(key, text, file, line));
        }
    }

    private static boolean endsWithContinuation(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }
}
