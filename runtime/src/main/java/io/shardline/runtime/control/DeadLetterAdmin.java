package io.shardline.runtime.control;

import io.shardline.runtime.redis.RedisClient;
import io.shardline.runtime.redis.RedisReplies;
import io.shardline.runtime.rest.entity.DeadLetter;
import io.shardline.runtime.rest.entity.DeadLetterPage;
import io.shardline.runtime.rest.entity.Redriven;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A listener's dead letters (docs/operations.md, "Dead letters"): its dead-letter stream ({@code dead.letter.stream},
 * default {@code <listener>.dlq}) read newest first in pages ({@code XREVRANGE}), one entry inspected, and chosen ones
 * or all written back ({@link DeadLetterRedriver}). Thread-safe; never blocks.
 */
final class DeadLetterAdmin {

    /** The fields the runtime adds to a dead letter (see the runtime's {@code DeadLetterWriter}). */
    static final String META_PREFIX = "__dlq.";
    private static final Pattern ENTRY_ID = Pattern.compile("\\d+-\\d+");

    private final RedisClient redis;
    private final Function<String, Future<Map<String, String>>> configOf;
    private final DeadLetterRedriver redriver;

    DeadLetterAdmin(ClusterView cluster, RedisClient redis, Function<String, Future<Map<String, String>>> configOf) {
        this.redis = Objects.requireNonNull(redis, "redis");
        this.configOf = Objects.requireNonNull(configOf, "configOf");
        this.redriver = new DeadLetterRedriver(cluster, redis);
    }

    /** Up to {@code limit} dead letters older than {@code before} (newest first; {@code null}: from the newest). */
    Future<DeadLetterPage> list(String listener, int limit, String before) {
        if (before != null) {
            requireId(before, "query parameter before");
        }
        return configOf.apply(listener).compose(config -> {
            String stream = stream(listener, config);
            Future<Long> total = redis.send(Request.cmd(Command.XLEN).arg(stream)).map(Response::toLong);
            Future<List<Response>> page = range(stream, before == null ? "+" : "(" + before, limit + 1);
            return Future.all(total, page).map(done -> {
                List<Response> entries = page.result();
                List<DeadLetter> letters = new ArrayList<>();
                for (int i = 0; i < Math.min(limit, entries.size()); i++) {
                    letters.add(letter(entries.get(i), false));
                }
                String next = entries.size() > limit ? letters.get(letters.size() - 1).id() : null;
                return new DeadLetterPage(listener, stream, total.result(), letters, next);
            });
        });
    }

    /** One dead letter with its record's fields; 404 when the stream has no such entry. */
    Future<DeadLetter> show(String listener, String id) {
        requireId(id, "id");
        return configOf.apply(listener).compose(config -> {
            String stream = stream(listener, config);
            return range(stream, id, 1).compose(entries -> entries.isEmpty() || !id.equals(entries.get(0).get(0).toString())
                    ? Future.failedFuture(ControlPlaneException.notFound("listener '" + listener + "' has no dead "
                    + "letter " + id + " in " + stream))
                    : Future.succeededFuture(letter(entries.get(0), true)));
        });
    }

    /** Writes the chosen dead letters back (or only answers what would be done, with {@code dryRun}). */
    Future<Redriven> redrive(String listener, RedriveRequest request, boolean dryRun) {
        return configOf.apply(listener).compose(config -> {
            ListenerShape shape = ListenerShape.of(listener, config);
            String stream = stream(listener, config);
            request.ids().forEach(id -> requireId(id, "ids"));
            Future<List<Response>> chosen = request.all() ? all(stream, "+", new ArrayList<>()) : byIds(listener, stream,
                    request.ids());
            return chosen.compose(entries -> redriver.redrive(shape, stream, entries, request.toStream(), dryRun));
        });
    }

    /** The dead-letter stream of a listener: {@code dead.letter.stream}, default {@code <listener>.dlq}. */
    static String stream(String listener, Map<String, String> config) {
        String configured = config.getOrDefault("dead.letter.stream", "").trim();
        return configured.isEmpty() ? listener + ".dlq" : configured;
    }

    private Future<List<Response>> byIds(String listener, String stream, List<String> asked) {
        List<String> ids = asked.stream().distinct().toList();
        List<Future<List<Response>>> reads = ids.stream().map(id -> range(stream, id, 1)
                .map(r -> r.isEmpty() || !id.equals(r.get(0).get(0).toString()) ? List.<Response>of() : r)).toList();
        return Future.all(reads).compose(done -> {
            List<Response> out = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (int i = 0; i < reads.size(); i++) {
                List<Response> r = reads.get(i).result();
                if (r.isEmpty()) {
                    missing.add(ids.get(i));
                } else {
                    out.add(r.get(0));
                }
            }
            if (!missing.isEmpty()) {
                return Future.failedFuture(ControlPlaneException.notFound("listener '" + listener + "' has no dead "
                        + "letter(s) " + missing + " in " + stream + "; nothing was redriven"));
            }
            out.sort((a, b) -> compareIds(a.get(0).toString(), b.get(0).toString()));
            return Future.succeededFuture(out);
        });
    }

    /** Every entry, oldest first, read newest first in pages of 500. */
    private Future<List<Response>> all(String stream, String end, List<Response> acc) {
        return range(stream, end, 500).compose(page -> {
            acc.addAll(page);
            if (page.size() < 500) {
                List<Response> oldestFirst = new ArrayList<>(acc);
                java.util.Collections.reverse(oldestFirst);
                return Future.succeededFuture(oldestFirst);
            }
            return all(stream, "(" + page.get(page.size() - 1).get(0).toString(), acc);
        });
    }

    private Future<List<Response>> range(String stream, String end, int count) {
        return redis.send(Request.cmd(Command.XREVRANGE).arg(stream).arg(end).arg("-").arg("COUNT").arg(count))
                .map(r -> {
                    List<Response> out = new ArrayList<>();
                    if (r != null) {
                        r.forEach(out::add);
                    }
                    return out;
                });
    }

    /** The dead letter of one {@code XREVRANGE} entry; {@code withFields}: with the record's own fields. */
    static DeadLetter letter(Response entry, boolean withFields) {
        String id = entry.get(0).toString();
        Map<String, String> all = RedisReplies.toStringMap(entry.get(1));
        Map<String, String> own = new LinkedHashMap<>();
        all.forEach((k, v) -> {
            if (!k.startsWith(META_PREFIX)) {
                own.put(k, v);
            }
        });
        Long at = number(all.get("__dlq.failed.at.ms"));
        return new DeadLetter(id, at != null ? at : Long.parseLong(id.substring(0, id.indexOf('-'))),
                all.get("__dlq.stream"), integer(all.get("__dlq.shard")), all.get("__dlq.id"), all.get("__key"),
                all.getOrDefault("__dlq.error", ""), integer(all.get("__dlq.deliveries")), integer(all.get("__dlq.attempts")),
                all.get("__dlq.member"), withFields ? own : null);
    }

    private static Integer integer(String text) {
        Long n = number(text);
        return n == null ? null : (int) (long) n;
    }

    private static Long number(String text) {
        try {
            return text == null ? null : Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static int compareIds(String a, String b) {
        int dash = a.indexOf('-');
        int dashB = b.indexOf('-');
        int c = Long.compare(Long.parseLong(a.substring(0, dash)), Long.parseLong(b.substring(0, dashB)));
        return c != 0 ? c : Long.compare(Long.parseLong(a.substring(dash + 1)), Long.parseLong(b.substring(dashB + 1)));
    }

    private static void requireId(String id, String what) {
        if (id == null || !ENTRY_ID.matcher(id).matches()) {
            throw ControlPlaneException.badRequest(what + ": '" + id + "' is not a stream entry id (<ms>-<seq>)");
        }
    }
}
