package io.shardline.runtime.rest.route;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.control.ControlPlaneException;
import io.shardline.runtime.metrics.DropwizardExporter;
import io.shardline.runtime.metrics.MetricsJson;
import io.vertx.ext.web.Router;
import java.util.Objects;

/**
 * {@code GET /metrics}: the worker's metrics in the Prometheus text format (through {@link DropwizardExporter}),
 * or as JSON with {@code ?format=json}. Rendering walks the registry on the event loop; it touches only
 * in-memory values (no I/O) and is linear in the number of metrics.
 */
public final class MetricsRoutes {

    private final MetricRegistry registry;
    private final DropwizardExporter exporter;

    /** Routes over {@code registry}. */
    public MetricsRoutes(MetricRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.exporter = new DropwizardExporter(registry);
    }

    /** Adds {@code GET /metrics} to {@code router}. */
    public void addTo(Router router) {
        router.get("/metrics").handler(ctx -> {
            String format = ctx.queryParams().get("format");
            if (format == null || format.equals("prometheus")) {
                ctx.response().putHeader("Content-Type", DropwizardExporter.CONTENT_TYPE).end(exporter.text());
            } else if (format.equals("json")) {
                ctx.response().putHeader("Content-Type", "application/json").end(MetricsJson.of(registry).encode());
            } else {
                ctx.fail(ControlPlaneException.badRequest("query parameter format: must be prometheus or json, got '"
                        + format + "'"));
            }
        });
    }
}
