package io.shardline.examples.webhook;

import io.shardline.api.config.ConfigDef;
import io.shardline.api.config.ConfigType;
import io.shardline.api.config.Importance;
import io.shardline.api.config.Validator;
import io.shardline.api.handler.HandlerContext;
import io.shardline.api.handler.HandlerMetrics;
import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.RetriableException;
import io.shardline.api.handler.ShardContext;
import io.shardline.api.handler.StreamRecord;
import io.shardline.api.handler.SyncHandler;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * POSTs each batch of a shard as a JSON array to an HTTP endpoint (java.net.http), with its own retries:
 * connection errors, 408, 429 and 5xx are retried with exponential backoff up to {@code retries} times
 * (then the runtime's {@code max.attempts} and dead-lettering take over); any other 4xx is permanent for
 * the batch ({@link NonRetriableException}: the runtime isolates and dead-letters the bad record).
 *
 * <p>Every request carries {@code Idempotency-Key: <stream>:<shard>:<first id>..<last id>} and
 * {@code X-Shardline-Fencing-Token: <stream>:<shard>@<owner epoch>}, so the receiver can drop replays and
 * requests from an owner that was fenced. Thread-safe.
 */
public class WebhookSink implements SyncHandler {

    static final String URL_CONFIG = "url";
    static final String RETRIES_CONFIG = "retries";
    static final String BACKOFF_CONFIG = "retry.backoff.ms";
    static final String TIMEOUT_CONFIG = "request.timeout.ms";

    private HttpClient client;
    private URI url;
    private int retries;
    private long backoffMs;
    private Duration timeout;
    private HandlerMetrics metrics;

    @Override
    public String alias() {
        return "webhook-sink";
    }

    @Override
    public String description() {
        return "POSTs batches as JSON to an HTTP endpoint, with retries, idempotency keys and fencing tokens.";
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef()
                .defineRequired(URL_CONFIG, ConfigType.STRING, Validator.custom("an http(s):// URL", WebhookSink::checkUrl),
                        Importance.HIGH, "The endpoint each batch is POSTed to.", "HTTP")
                .define(RETRIES_CONFIG, ConfigType.INT, 3, Validator.between(0, 100), Importance.MEDIUM,
                        "Retries of a failed request inside one handler attempt.", "HTTP")
                .define(BACKOFF_CONFIG, ConfigType.LONG, 200L, Validator.between(0, 600_000), Importance.LOW,
                        "The first delay between retries; doubled each time.", "HTTP")
                .define(TIMEOUT_CONFIG, ConfigType.LONG, 10_000L, Validator.between(1, 600_000), Importance.MEDIUM,
                        "Connect and response timeout of one request.", "HTTP");
    }

    private static Optional<String> checkUrl(Object value) {
        try {
            URI uri = URI.create(value.toString());
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                return Optional.empty();
            }
        } catch (IllegalArgumentException e) {
            return Optional.of("not a URL: " + e.getMessage());
        }
        return Optional.of("must be an http:// or https:// URL with a host");
    }

    @Override
    public void start(HandlerContext context) {
        url = URI.create(context.config().getString(URL_CONFIG));
        retries = context.config().getInt(RETRIES_CONFIG);
        backoffMs = context.config().getLong(BACKOFF_CONFIG);
        timeout = Duration.ofMillis(context.config().getLong(TIMEOUT_CONFIG));
        metrics = context.metrics();
        client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public void handle(StreamRecord record, ShardContext shard) throws InterruptedException {
        handleBatch(List.of(record), shard);
    }

    @Override
    public void handleBatch(List<StreamRecord> records, ShardContext shard) throws InterruptedException {
        String idempotencyKey = shard.shard() + ":" + records.get(0).entryId() + ".." + records.get(records.size() - 1).entryId();
        HttpRequest request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Idempotency-Key", idempotencyKey)
                .header("X-Shardline-Fencing-Token", shard.fencingToken())
                .POST(HttpRequest.BodyPublishers.ofString(JsonRecords.render(records)))
                .build();
        String lastProblem = "";
        for (int attempt = 0; attempt <= retries; attempt++) {
            if (attempt > 0) {
                metrics.increment("retries");
                Thread.sleep(Math.min(backoffMs << Math.min(attempt - 1, 20), 60_000)); // backoff between HTTP retries
            }
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    metrics.increment("posted", records.size());
                    return;
                }
                lastProblem = "HTTP " + status + " from " + url;
                if (status != 408 && status != 429 && status < 500) {
                    throw new NonRetriableException(lastProblem + ": " + abbreviate(response.body()));
                }
            } catch (IOException e) {
                lastProblem = "cannot POST to " + url + ": " + e;
            }
        }
        throw new RetriableException(lastProblem + " (after " + (retries + 1) + " request(s))");
    }

    private static String abbreviate(String body) {
        return body == null ? "" : body.length() > 200 ? body.substring(0, 200) + "..." : body;
    }
}
