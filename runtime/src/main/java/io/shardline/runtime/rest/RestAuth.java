package io.shardline.runtime.rest;

import io.shardline.api.config.Password;
import io.shardline.runtime.config.WorkerConfig;
import io.shardline.runtime.control.ControlPlaneException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one decision whether a REST request may proceed; route groups added later (a console) reuse it through
 * {@link #refusal}. In order:
 * <ol>
 *   <li>Browsers cannot drive the API from another site: a request whose {@code Sec-Fetch-Site} is neither
 *       {@code same-origin} nor {@code none}, or whose {@code Origin} is not this server's own origin, is
 *       refused (403). On a loopback bind the {@code Host} must name loopback (or the bind address itself),
 *       which defeats DNS rebinding (403).</li>
 *   <li>Bearer token: with a token (configured, or generated into the token file, see {@link RestTokenFile})
 *       every request except {@code GET /health} must carry {@code Authorization: Bearer <token>}, else 401;
 *       reads ({@code GET}, {@code HEAD}) also accept {@code rest.auth.read.token}, which answers 403 on
 *       writes. Tokens are compared in constant time ({@link MessageDigest#isEqual} over SHA-256 digests, so
 *       not even the length leaks) and never logged.</li>
 *   <li>A write ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) with a body or a
 *       {@code Content-Type} must say {@code application/json}, else 415: an HTML form can only send
 *       {@code text/plain}, {@code multipart/form-data} or {@code application/x-www-form-urlencoded}.</li>
 * </ol>
 * Thread-safe.
 */
public final class RestAuth implements Handler<RoutingContext> {

    private static final String PREFIX = "Bearer ";
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final byte[] token;
    private final byte[] readToken;
    private final String scheme;
    private final String bind;
    private final boolean loopbackBind;

    /** Authentication with the tokens of {@code settings}. */
    public RestAuth(RestSettings settings) {
        this.token = digest(settings.token());
        this.readToken = digest(settings.readToken());
        this.scheme = settings.scheme();
        this.bind = settings.bind();
        this.loopbackBind = WorkerConfig.isLoopback(settings.bind());
    }

    @Override
    public void handle(RoutingContext ctx) {
        Optional<ControlPlaneException> refused = refusal(ctx);
        if (refused.isPresent()) {
            if (refused.get().status() == 401) {
                ctx.response().putHeader("WWW-Authenticate", "Bearer realm=\"shardline\"");
            }
            ctx.fail(refused.get());
        } else {
            ctx.next();
        }
    }

    /** Why {@code ctx}'s request may not proceed (403, 401 or 415, with the message to answer); empty when it may. */
    public Optional<ControlPlaneException> refusal(RoutingContext ctx) {
        HttpServerRequest request = ctx.request();
        Optional<ControlPlaneException> site = crossSite(request);
        if (site.isPresent()) {
            return site;
        }
        Optional<ControlPlaneException> auth = isHealth(ctx) ? Optional.empty() : unauthenticated(request);
        return auth.isPresent() ? auth : notJson(request);
    }

    private Optional<ControlPlaneException> crossSite(HttpServerRequest request) {
        String fetchSite = request.getHeader("Sec-Fetch-Site");
        if (fetchSite != null && !fetchSite.equalsIgnoreCase("same-origin") && !fetchSite.equalsIgnoreCase("none")) {
            return Optional.of(new ControlPlaneException(403, "cross-site requests are refused (Sec-Fetch-Site: "
                    + fetchSite + "): call the API from the same origin or from a non-browser client"));
        }
        HostAndPort host = request.authority();
        if (loopbackBind && host != null && !isLoopbackName(host.host())) {
            return Optional.of(new ControlPlaneException(403, "this worker's REST API is bound to loopback; Host '"
                    + host.host() + "' is not a loopback name (use 127.0.0.1 or localhost)"));
        }
        String origin = request.getHeader(HttpHeaders.ORIGIN);
        if (origin != null && !sameOrigin(origin, host)) {
            return Optional.of(new ControlPlaneException(403, "cross-origin requests are refused (Origin: " + origin
                    + "): call the API from the same origin or from a non-browser client"));
        }
        return Optional.empty();
    }

    private Optional<ControlPlaneException> unauthenticated(HttpServerRequest request) {
        if (token == null) {
            return Optional.empty();
        }
        byte[] presented = presented(request);
        if (presented != null && MessageDigest.isEqual(presented, token)) {
            return Optional.empty();
        }
        if (presented != null && readToken != null && MessageDigest.isEqual(presented, readToken)) {
            return isRead(request) ? Optional.empty() : Optional.of(ControlPlaneException.forbidden());
        }
        return Optional.of(new ControlPlaneException(401, "missing or invalid bearer token: send 'Authorization: "
                + "Bearer <token>' with the value of rest.auth.token or, when that is not set, of the worker's token "
                + "file (rest.auth.token.file, default <log.dir>/<worker.id>.token)"
                + (readToken != null ? " (or rest.auth.read.token for reads)" : "")));
    }

    private static Optional<ControlPlaneException> notJson(HttpServerRequest request) {
        if (isRead(request) || request.method() == HttpMethod.OPTIONS) {
            return Optional.empty();
        }
        String type = request.getHeader(HttpHeaders.CONTENT_TYPE);
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        boolean body = request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null
                || (length != null && !length.trim().equals("0"));
        if (type == null && !body) {
            return Optional.empty();
        }
        String media = type == null ? "" : type.split(";", 2)[0].trim();
        if (media.equalsIgnoreCase("application/json")) {
            return Optional.empty();
        }
        return Optional.of(new ControlPlaneException(415, "Content-Type must be application/json"
                + (type == null ? " (none was sent)" : " (got '" + type + "')")));
    }

    private boolean sameOrigin(String origin, HostAndPort host) {
        if (host == null) {
            return false;
        }
        try {
            URI uri = new URI(origin.trim());
            if (uri.getScheme() == null || uri.getHost() == null || !uri.getScheme().equalsIgnoreCase(scheme)) {
                return false;
            }
            return stripBrackets(uri.getHost()).equalsIgnoreCase(stripBrackets(host.host()))
                    && portOr(uri.getPort()) == portOr(host.port());
        } catch (URISyntaxException e) {
            return false; // includes "null", sent by sandboxed frames and file: pages
        }
    }

    private int portOr(int port) {
        return port >= 0 ? port : scheme.equals("https") ? 443 : 80;
    }

    /** localhost, a loopback IP literal, or the bind address itself: never a DNS lookup per request. */
    private boolean isLoopbackName(String host) {
        String h = stripBrackets(host).toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.equalsIgnoreCase(stripBrackets(bind))) {
            return true;
        }
        if (!IPV4.matcher(h).matches() && !h.contains(":")) {
            return false;
        }
        try {
            return InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String stripBrackets(String host) {
        return host.length() > 1 && host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
                : host;
    }

    private static boolean isRead(HttpServerRequest request) {
        return request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD;
    }

    private static boolean isHealth(RoutingContext ctx) {
        return ctx.request().method() == HttpMethod.GET && "/health".equals(RestErrors.path(ctx));
    }

    private static byte[] presented(HttpServerRequest request) {
        String header = request.getHeader("Authorization");
        if (header == null || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return null;
        }
        return sha256(header.substring(PREFIX.length()).trim());
    }

    private static byte[] digest(Optional<Password> password) {
        return password.map(p -> sha256(p.value())).orElse(null);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
