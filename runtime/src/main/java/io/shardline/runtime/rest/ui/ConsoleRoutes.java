package io.shardline.runtime.rest.ui;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code /ui}: the web console, a static single page served from this jar (HTML, CSS and plain JavaScript in
 * {@code io/shardline/runtime/ui/}) with its chart library (uPlot) from the uPlot WebJar on the classpath, so
 * nothing is fetched from another site at run time. The page holds no data: it signs in with the REST API's
 * bearer token (kept in the tab's {@code sessionStorage}) and reads and acts through the REST API like any other
 * client, so {@link io.shardline.runtime.rest.RestAuth} guards every figure and action; the files themselves are
 * served without a token (mounted before authentication) so that the sign-in form can load.
 *
 * <p>Every answer carries a Content-Security-Policy that allows scripts, styles, images and requests from this
 * origin only and no framing, plus {@code nosniff} and {@code no-referrer}. Stateless; thread-safe.
 */
public final class ConsoleRoutes {

    /** The directory of the console's own files on the classpath. */
    static final String WEB_ROOT = "io/shardline/runtime/ui";
    /** The uPlot version on the classpath (from its WebJar's Maven metadata). */
    static final String UPLOT_VERSION = webJarVersion("uplot");
    /** The page's security policy: this origin only, never framed. */
    public static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
            + "frame-ancestors 'none'";

    /** The sub-router, to be mounted at {@code /ui*}. */
    public Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.route().handler(ConsoleRoutes::secureHeaders);
        router.get("/").handler(ctx -> {
            if (!ctx.request().path().endsWith("/")) {
                ctx.redirect(ctx.request().path() + "/");
            } else {
                ctx.next();
            }
        });
        router.get("/lib/uplot/*").handler(StaticHandler.create("META-INF/resources/webjars/uplot/" + UPLOT_VERSION
                + "/dist").setCachingEnabled(true).setMaxAgeSeconds(3600));
        router.get("/*").handler(StaticHandler.create(WEB_ROOT).setCachingEnabled(false).setIndexPage("index.html"));
        return router;
    }

    private static void secureHeaders(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        response.putHeader("Content-Security-Policy", CONTENT_SECURITY_POLICY)
                .putHeader("X-Content-Type-Options", "nosniff")
                .putHeader("Referrer-Policy", "no-referrer")
                .putHeader("X-Frame-Options", "DENY");
        ctx.next();
    }

    private static String webJarVersion(String artifact) {
        String path = "META-INF/maven/org.webjars.npm/" + artifact + "/pom.properties";
        try (InputStream in = ConsoleRoutes.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("the " + artifact + " WebJar is missing from the classpath (" + path
                        + "): the console cannot serve its charts");
            }
            Properties props = new Properties();
            props.load(in);
            return props.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
