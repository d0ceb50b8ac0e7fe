package io.shardline.runtime.metrics;

import io.prometheus.client.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One documented metric: its Dropwizard name pattern, with variable parts in angle brackets (e.g.
 * {@code shardline.listener.<listener>.records.handled}), its type and meaning. On {@code /metrics} the
 * variable parts become labels and the fixed parts the family name ({@code shardline_listener_records_handled}
 * with label {@code listener}). Every template has fixed text between its variable parts that they cannot
 * contain (e.g. {@code .{<stream>:<shard>}.}: stream names have no braces), so parsing is unambiguous.
 * Immutable.
 *
 * @param template the name pattern
 * @param type its Dropwizard type
 * @param help what it means (one sentence, for docs and the Prometheus HELP line)
 */
public record MetricTemplate(String template, MetricType type, String help) {

    private static final Pattern VARIABLE = Pattern.compile("<([a-z]+)>");
    /**
     * Each template parsed once: the status sampler's sweep and every {@code /metrics} scrape resolve every metric
     * name (a few per shard) against every template, which must cost no regex compilation per name.
     */
    private static final java.util.Map<String, Parsed> PARSED = new java.util.concurrent.ConcurrentHashMap<>();

    /** A template parsed: its name pattern, the fixed text before its first variable, labels and family. */
    private record Parsed(Pattern pattern, String prefix, List<String> labels, String family) {
    }

    /** Validates. */
    public MetricTemplate {
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(help, "help");
    }

    /** The label names, in order of appearance. */
    public List<String> labels() {
        return parsed().labels();
    }

    private static List<String> labels(String template) {
        List<String> out = new ArrayList<>();
        Matcher m = VARIABLE.matcher(template);
        while (m.find()) {
            out.add(m.group(1));
        }
        return List.copyOf(out);
    }

    /** The Prometheus family name: the fixed parts of the template, sanitised. */
    public String family() {
        return parsed().family();
    }

    private static String family(String template) {
        String fixed = VARIABLE.matcher(template).replaceAll("").replaceAll("[{}:]", "").replaceAll("\\.+", ".");
        if (fixed.endsWith(".")) {
            fixed = fixed.substring(0, fixed.length() - 1);
        }
        return Collector.sanitizeMetricName(fixed.replace('.', '_').replace('-', '_'));
    }

    /** The Dropwizard name of this metric for the given label values (in {@link #labels()} order). */
    public String name(String... values) {
        List<String> labels = labels();
        if (values.length != labels.size()) {
            throw new IllegalArgumentException(template + " takes " + labels.size() + " values, got " + values.length);
        }
        String out = template;
        for (int i = 0; i < values.length; i++) {
            out = out.replace("<" + labels.get(i) + ">", values[i]);
        }
        return out;
    }

    /** The label values when {@code name} is an instance of this template. */
    public Optional<List<String>> match(String name) {
        Parsed parsed = parsed();
        if (!name.startsWith(parsed.prefix())) {
            return Optional.empty();
        }
        Matcher m = parsed.pattern().matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= m.groupCount(); i++) {
            values.add(m.group(i));
        }
        return Optional.of(values);
    }

    private Parsed parsed() {
        return PARSED.computeIfAbsent(template, t -> {
            Matcher first = VARIABLE.matcher(t);
            return new Parsed(compile(t), first.find() ? t.substring(0, first.start()) : t, labels(t), family(t));
        });
    }

    private static Pattern compile(String template) {
        StringBuilder regex = new StringBuilder();
        Matcher m = VARIABLE.matcher(template);
        int last = 0;
        while (m.find()) {
            regex.append(Pattern.quote(template.substring(last, m.start()))).append("(.+)");
            last = m.end();
        }
        regex.append(Pattern.quote(template.substring(last)));
        return Pattern.compile(regex.toString());
    }
}
