package io.shardline.runtime.rest.route;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.shardline.runtime.control.ControlPlaneException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reading requests: JSON bodies, string maps and query flags, with 400 errors that name the bad field.
 * Stateless.
 */
final class Requests {

    /** Jackson with duplicate keys and trailing tokens refused. */
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final java.util.regex.Pattern DUPLICATE = java.util.regex.Pattern.compile("Duplicate field '([^']*)'");

    private Requests() {
    }

    /**
     * The body as a JSON object, parsed strictly: a key given twice, trailing text, or anything but an object
     * is a 400 whose message names the problem and its place, never the parser's internals.
     */
    static JsonObject jsonBody(RoutingContext ctx) {
        String text = ctx.body() == null ? null : ctx.body().asString();
        if (text == null || text.isBlank()) {
            throw ControlPlaneException.badRequest("request body: a JSON object is required");
        }
        JsonNode tree;
        try {
            tree = STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            throw ControlPlaneException.badRequest("request body: " + describe(e));
        }
        if (tree == null || !tree.isObject()) {
            throw ControlPlaneException.badRequest("request body: must be a JSON object, got "
                    + (tree == null ? "nothing" : tree.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
        }
        return new JsonObject(STRICT.convertValue(tree, new TypeReference<java.util.LinkedHashMap<String, Object>>() {
        }));
    }

    /** Refuses a field of {@code object} that is not one of {@code known} (400 naming it and the known ones). */
    static void onlyFields(JsonObject object, java.util.Set<String> known) {
        for (String field : object.fieldNames()) {
            if (!known.contains(field)) {
                throw ControlPlaneException.badRequest(field + ": unknown field; the known fields are "
                        + new java.util.TreeSet<>(known));
            }
        }
    }

    private static String describe(JsonProcessingException e) {
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : " (line " + at.getLineNr() + ", column "
                + at.getColumnNr() + ")";
        java.util.regex.Matcher duplicate = DUPLICATE.matcher(original);
        if (duplicate.find()) {
            return "key '" + duplicate.group(1) + "' given twice" + where + "; give each key once";
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException
                && original.contains("Trailing token")) {
            return "text after the JSON value" + where;
        }
        return "not valid JSON" + where;
    }

    /** {@code object.field} as a map of strings (numbers and booleans are accepted as their text). */
    static Map<String, String> stringMap(JsonObject object, String field) {
        Object value = object.getValue(field);
        if (value == null) {
            throw ControlPlaneException.badRequest(field + ": required (a JSON object of strings)");
        }
        if (!(value instanceof JsonObject json)) {
            throw ControlPlaneException.badRequest(field + ": must be a JSON object of strings");
        }
        return strings(json, field + ".");
    }

    /** A JSON object of strings, errors prefixed with {@code path}. */
    static Map<String, String> strings(JsonObject json, String path) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Object> e : json) {
            Object v = e.getValue();
            if (v instanceof String || v instanceof Number || v instanceof Boolean) {
                out.put(e.getKey(), String.valueOf(v));
            } else {
                throw ControlPlaneException.badRequest(path + e.getKey() + ": must be a string, got "
                        + (v == null ? "null" : v instanceof JsonObject ? "an object" : "an array"));
            }
        }
        return out;
    }

    /** A {@code true}/{@code false} query parameter, {@code false} when absent. */
    static boolean flag(RoutingContext ctx, String name) {
        String value = ctx.queryParams().get(name);
        if (value == null) {
            return false;
        }
        if (value.isEmpty() || value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw ControlPlaneException.badRequest("query parameter " + name + ": must be true or false, got '" + value + "'");
    }

    /** An integer query parameter within {@code [min, max]}, {@code fallback} when absent. */
    static int intParam(RoutingContext ctx, String name, int fallback, int min, int max) {
        String value = ctx.queryParams().get(name);
        if (value == null) {
            return fallback;
        }
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ControlPlaneException.badRequest("query parameter " + name + ": must be an integer in " + min + ".."
                + max + ", got '" + value + "'");
    }

    /** A path parameter parsed as a shard index. */
    static int shardIndex(RoutingContext ctx) {
        String value = ctx.pathParam("shard");
        try {
            int index = Integer.parseInt(value);
            if (index >= 0) {
                return index;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw ControlPlaneException.badRequest("shard: must be a shard index (an integer >= 0), got '" + value + "'");
    }

    /** Runs {@code action}, turning a synchronous throw into a failed future. */
    static <T> Future<T> guarded(java.util.function.Supplier<Future<T>> action) {
        try {
            return action.get();
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    /** Answers {@code status} with no body once {@code action} succeeds (fails the context otherwise). */
    static void noContent(RoutingContext ctx, int status, Future<?> action) {
        action.onSuccess(v -> ctx.response().setStatusCode(status).end()).onFailure(ctx::fail);
    }
}
