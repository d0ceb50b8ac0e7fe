package io.shardline.runtime.control;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where to move a group on a shard ({@code PATCH /listeners/{name}/offsets}, {@code bin/shardline offsets reset}):
 * {@code earliest} (every entry is delivered again), {@code latest} (only entries added from now on), an entry id
 * ({@code <ms>-<seq>} or {@code <ms>}: the group is positioned after it), {@code @<epoch-ms>} (entries from that
 * time on are delivered again) or {@code -<duration>} such as {@code -15m} (from that long before the Redis server's
 * clock). Immutable.
 *
 * @param kind the kind
 * @param value the entry id ({@link Kind#ID}), epoch milliseconds ({@link Kind#TIME}), milliseconds back
 *     ({@link Kind#AGO}), else empty
 * @param text the position as written
 */
public record ShardPosition(Kind kind, String value, String text) {

    /** What the position names. */
    public enum Kind {
        EARLIEST, LATEST, ID, TIME, AGO
    }

    /** What the forms are, for error messages. */
    public static final String FORMS = "earliest, latest, an entry id (<ms>-<seq>), @<epoch-ms> or -<duration> "
            + "(e.g. -15m, -2h, -30s, -500ms, -1d)";

    private static final Pattern ID = Pattern.compile("(\\d{1,19})(?:-(\\d{1,19}))?");
    private static final Pattern DURATION = Pattern.compile("-(\\d{1,12})(ms|s|m|h|d)");

    /** Validates. */
    public ShardPosition {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(text, "text");
    }

    /**
     * Parses {@code text}.
     *
     * @param field what to name in the error, e.g. {@code shards[0].position}
     * @throws ControlPlaneException 400 naming {@code field}, the text and the accepted forms
     */
    public static ShardPosition parse(String text, String field) {
        if (text == null) {
            throw ControlPlaneException.badRequest(field + ": required (" + FORMS + ")");
        }
        String t = text.trim();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.equals("earliest")) {
            return new ShardPosition(Kind.EARLIEST, "", t);
        }
        if (lower.equals("latest")) {
            return new ShardPosition(Kind.LATEST, "", t);
        }
        Matcher id = ID.matcher(t);
        if (id.matches()) {
            return new ShardPosition(Kind.ID, id.group(1) + "-" + (id.group(2) == null ? "0" : id.group(2)), t);
        }
        if (t.startsWith("@") && t.substring(1).matches("\\d{1,15}")) {
            return new ShardPosition(Kind.TIME, Long.toString(Long.parseLong(t.substring(1))), t);
        }
        Matcher ago = DURATION.matcher(lower);
        if (ago.matches()) {
            long n = Long.parseLong(ago.group(1));
            long ms = switch (ago.group(2)) {
                case "ms" -> n;
                case "s" -> n * 1_000;
                case "m" -> n * 60_000;
                case "h" -> n * 3_600_000;
                default -> n * 86_400_000;
            };
            return new ShardPosition(Kind.AGO, Long.toString(ms), t);
        }
        throw ControlPlaneException.badRequest(field + ": '" + text + "' is not a position; use " + FORMS);
    }
}
