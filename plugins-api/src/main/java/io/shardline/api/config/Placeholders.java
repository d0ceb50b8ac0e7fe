package io.shardline.api.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves {@code ${env:NAME}} (an environment variable) and {@code ${file:path:key}} (a key of a
 * properties file; a relative path is resolved against the directory of the configuration file)
 * in configuration values, so that secrets need not be written into the configuration itself.
 * Any other {@code ${provider:...}} is an error. Resolved text is never put in error messages.
 *
 * <p>Thread-safe when the environment function is; files are read on each {@link #resolve} call.
 */
public final class Placeholders {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-zA-Z]+):([^}]*)}");

    private final Function<String, String> environment;

    /**
     * Creates a resolver.
     *
     * @param environment looks up an environment variable; returns {@code null} when unset
     */
    public Placeholders(Function<String, String> environment) {
        this.environment = Objects.requireNonNull(environment, "environment");
    }

    /** A resolver over the process environment. */
    public static Placeholders system() {
        return new Placeholders(System::getenv);
    }

    /**
     * One placeholder as written, e.g. {@code ${file:/etc/secrets.properties:pw}}: provider {@code file},
     * argument {@code /etc/secrets.properties:pw}.
     *
     * @param provider the text before the first colon ({@code env}, {@code file}, or an unknown one)
     * @param argument the text after it
     */
    public record Reference(String provider, String argument) {

        /** The placeholder as written. */
        public String text() {
            return "${" + provider + ":" + argument + "}";
        }

        /** For a well-formed {@code ${file:path:key}}: the path as written (the text before the last colon). */
        public java.util.Optional<String> filePath() {
            int colon = argument.lastIndexOf(':');
            return "file".equals(provider) && colon > 0 && colon < argument.length() - 1
                    ? java.util.Optional.of(argument.substring(0, colon)) : java.util.Optional.empty();
        }
    }

    /** Every placeholder in {@code text}, in order, unresolved (to check them against a policy first). */
    public static List<Reference> references(String text) {
        Matcher m = PLACEHOLDER.matcher(text);
        List<Reference> out = new ArrayList<>();
        while (m.find()) {
            out.add(new Reference(m.group(1), m.group(2)));
        }
        return out;
    }

    /** Whether the text contains a placeholder. */
    public static boolean containsPlaceholder(String text) {
        return PLACEHOLDER.matcher(text).find();
    }

    /**
     * Replaces every placeholder in {@code text}.
     *
     * @param text the raw value
     * @param baseDir directory relative file paths resolve against, or {@code null} for the working directory
     * @return the resolved text
     * @throws IllegalArgumentException with a reason (no secret in it) when a placeholder cannot be resolved
     */
    public String resolve(String text, Path baseDir) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        Map<Path, Properties> files = new HashMap<>();
        while (m.find()) {
            String provider = m.group(1);
            String argument = m.group(2);
            String value = switch (provider) {
                case "env" -> env(argument);
                case "file" -> file(argument, baseDir, files);
                default -> throw new IllegalArgumentException("unknown placeholder ${" + provider
                        + ":...}; use ${env:NAME} or ${file:path:key}");
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    private String env(String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("${env:} needs a variable name");
        }
        String value = environment.apply(name);
        if (value == null) {
            throw new IllegalArgumentException("environment variable " + name + " is not set");
        }
        return value;
    }

    private static String file(String argument, Path baseDir, Map<Path, Properties> cache) {
        int colon = argument.lastIndexOf(':');
        if (colon <= 0 || colon == argument.length() - 1) {
            throw new IllegalArgumentException("${file:" + argument + "} must be ${file:path:key}");
        }
        Path path = Path.of(argument.substring(0, colon));
        if (!path.isAbsolute() && baseDir != null) {
            path = baseDir.resolve(path);
        }
        String key = argument.substring(colon + 1);
        Properties props = cache.computeIfAbsent(path, Placeholders::read);
        String value = props.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException("key '" + key + "' is not in " + path);
        }
        return value;
    }

    private static Properties read(Path path) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            props.load(reader);
        } catch (IOException | IllegalArgumentException e) {
            String why = Files.exists(path) ? "cannot read " + path + " (" + e.getClass().getSimpleName() + ")"
                    : path + " does not exist";
            throw new IllegalArgumentException(why);
        }
        return props;
    }
}
