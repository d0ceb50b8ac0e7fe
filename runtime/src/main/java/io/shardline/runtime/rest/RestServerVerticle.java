package io.shardline.runtime.rest;

import com.codahale.metrics.MetricRegistry;
import io.shardline.runtime.control.ControlPlane;
import io.shardline.runtime.rest.route.MetricsRoutes;
import io.shardline.runtime.rest.route.AdminRoutes;
import io.shardline.runtime.rest.route.GroupRoutes;
import io.shardline.runtime.rest.route.StreamRoutes;
import io.shardline.runtime.rest.route.ListenerRoutes;
import io.shardline.runtime.rest.route.PluginRoutes;
import io.shardline.runtime.rest.route.WorkerRoutes;
import io.shardline.runtime.rest.ui.ConsoleRoutes;
import io.shardline.runtime.config.WorkerConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The REST API of one worker: routes of {@link WorkerRoutes}, {@link PluginRoutes}, {@link ListenerRoutes},
 * {@link GroupRoutes} and {@link MetricsRoutes} over a {@link ControlPlane}, behind a 1 MiB body limit and
 * {@link RestAuth}, with {@link RestErrors} as the single failure handler; and the web console's static files
 * ({@link ConsoleRoutes}, {@code /ui}), which hold no data and read everything through those routes.
 *
 * <p>Secure by default: binds to {@code 127.0.0.1} unless configured; {@link RestSettings} refuses a
 * non-loopback address without a token, so this verticle never listens unauthenticated beyond the host, and a
 * worker without a configured token generates one ({@link RestTokenFile}). HTTPS with PEM files when
 * {@link RestSettings#tls()} is set. {@link RestAuth} refuses cross-site and non-JSON writes.
 */
public final class RestServerVerticle extends VerticleBase {

    private static final Logger LOG = LoggerFactory.getLogger(RestServerVerticle.class);

    private final RestSettings settings;
    private final ControlPlane plane;
    private final MetricRegistry registry;
    private HttpServer server;

    /** A REST server over {@code plane}, exporting {@code registry} on {@code /metrics}. */
    public RestServerVerticle(RestSettings settings, ControlPlane plane, MetricRegistry registry) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.plane = Objects.requireNonNull(plane, "plane");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public Future<?> start() {
        Router router = router();
        HttpServerOptions options = new HttpServerOptions().setHost(settings.bind()).setPort(settings.port());
        settings.tls().ifPresent(tls -> options.setSsl(true).setKeyCertOptions(new PemKeyCertOptions()
                .setKeyPath(tls.key().toString()).setCertPath(tls.cert().toString())));
        return vertx.createHttpServer(options)
                .requestHandler(router)
                .invalidRequestHandler(RestErrors::invalidRequest)
                .listen()
                .recover(e -> Future.failedFuture(new IllegalStateException(
                        RestPortCheck.message(settings.bind(), settings.port(), e.getMessage()), e)))
                .onSuccess(s -> {
                    server = s;
                    LOG.info("REST API listening on {}://{}:{} ({})", settings.scheme(), settings.bind(), s.actualPort(),
                            settings.authDescription());
                })
                .recover(e -> Future.failedFuture(new IllegalStateException(failure(e), e)));
    }

    private String failure(Throwable e) {
        String what = settings.tls().map(t -> " with HTTPS (" + WorkerConfig.REST_TLS_KEY_CONFIG + " = " + t.key() + ", "
                + WorkerConfig.REST_TLS_CERT_CONFIG + " = " + t.cert() + ")").orElse("");
        return "REST API cannot listen on " + settings.bind() + ":" + settings.port() + what + ": " + e.getMessage();
    }

    @Override
    public Future<?> stop() {
        return server == null ? Future.succeededFuture() : server.close();
    }

    /** The port the server listens on (useful with port 0); -1 before it started. */
    public int actualPort() {
        return server == null ? -1 : server.actualPort();
    }

    /** Every route of the API (the OpenAPI test walks it). */
    public Router router() {
        Router router = Router.router(vertx);
        RestErrors errors = new RestErrors(settings.bodyLimit());
        // The console's static files carry no data and must load before the user signs in; every figure the
        // page shows comes from the routes below, behind RestAuth.
        router.route("/ui*").subRouter(new ConsoleRoutes().router(vertx));
        router.route().handler(new RestAuth(settings));
        router.route().handler(BodyHandler.create(false).setBodyLimit(settings.bodyLimit()));
        new WorkerRoutes(plane).addTo(router);
        new MetricsRoutes(registry).addTo(router);
        router.route("/plugins*").subRouter(new PluginRoutes(plane).router(vertx));
        router.route("/listeners*").subRouter(new ListenerRoutes(plane).router(vertx));
        router.route("/groups*").subRouter(new GroupRoutes(plane).router(vertx));
        router.route("/streams*").subRouter(new StreamRoutes(plane).router(vertx));
        router.route("/admin*").subRouter(new AdminRoutes(plane).router(vertx));
        router.route().failureHandler(errors::handle);
        for (int status : new int[] {400, 401, 403, 404, 405, 413, 415, 500}) {
            router.errorHandler(status, errors::handle);
        }
        return router;
    }
}
