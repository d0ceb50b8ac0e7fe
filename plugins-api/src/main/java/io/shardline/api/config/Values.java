package io.shardline.api.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/** Converts configuration text to typed values and back. Stateless; package-private. */
final class Values {

    private static final Pattern CLASS_NAME =
            Pattern.compile("\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*"
                    + "(\\.\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)*");

    private Values() {
    }

    /**
     * Parses text as the given type.
     *
     * @throws IllegalArgumentException with a reason naming the expected form
     */
    static Object parse(ConfigType type, String text) {
        String trimmed = text.trim();
        switch (type) {
            case STRING:
                return trimmed;
            case PASSWORD:
                return new Password(text);
            case INT:
                try {
                    return Integer.parseInt(trimmed);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not an int (a whole number between "
                            + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE + ")");
                }
            case LONG:
                try {
                    return Long.parseLong(trimmed);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("not a long (a whole number)");
                }
            case DOUBLE:
                return parseDouble(trimmed);
            case BOOLEAN:
                if (trimmed.equalsIgnoreCase("true") || trimmed.equalsIgnoreCase("false")) {
                    return Boolean.parseBoolean(trimmed);
                }
                throw new IllegalArgumentException("not a boolean (true or false)");
            case LIST:
                return parseList(trimmed);
            case CLASS:
                if (!CLASS_NAME.matcher(trimmed).matches()) {
                    throw new IllegalArgumentException("not a fully qualified class name");
                }
                return trimmed;
            default:
                throw new IllegalStateException("unhandled type " + type);
        }
    }

    /** Whether {@code value} has the Java type values of {@code type} have after parsing. */
    static boolean hasJavaType(ConfigType type, Object value) {
        return switch (type) {
            case STRING, CLASS -> value instanceof String;
            case PASSWORD -> value instanceof Password;
            case INT -> value instanceof Integer;
            case LONG -> value instanceof Long;
            case DOUBLE -> value instanceof Double;
            case BOOLEAN -> value instanceof Boolean;
            case LIST -> value instanceof List<?> list && list.stream().allMatch(String.class::isInstance);
        };
    }

    /** A parsed value as text that would parse back to it; passwords are hidden. */
    static String display(ConfigType type, Object value) {
        if (value == null) {
            return "";
        }
        if (type == ConfigType.PASSWORD || value instanceof Password) {
            return Password.HIDDEN;
        }
        if (value instanceof List<?> list) {
            return Password.maskUserInfo(String.join(",", list.stream().map(String::valueOf).toList()));
        }
        return Password.maskUserInfo(String.valueOf(value));
    }

    private static Double parseDouble(String trimmed) {
        try {
            double d = Double.parseDouble(trimmed);
            if (Double.isFinite(d)) {
                return d;
            }
        } catch (NumberFormatException e) {
            // fall through to the common error
        }
        throw new IllegalArgumentException("not a finite number");
    }

    private static List<String> parseList(String trimmed) {
        List<String> items = new ArrayList<>();
        for (String item : Arrays.asList(trimmed.split(","))) {
            String t = item.trim();
            if (!t.isEmpty()) {
                items.add(t);
            }
        }
        return List.copyOf(items);
    }
}
