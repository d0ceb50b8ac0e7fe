package io.shardline.runtime.cluster;

import io.shardline.api.config.Password;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What guards a worker's cluster ports (docs/security.md, "Cluster port").
 *
 * <ul>
 *   <li>The join secret ({@code cluster.secret}). Hazelcast's open-source edition has no member authentication
 *   (TLS, symmetric encryption and JAAS are Enterprise features); what it does check at every join, for members and
 *   clients alike, is the cluster name. With a secret the Hazelcast cluster name is
 *   {@code <cluster.name>-<HMAC-SHA256(secret, cluster.name), 32 hex digits>}, so a process without the secret is
 *   refused at join: it forms a cluster of its own and never sees this cluster's members, maps or event-bus
 *   subscriptions, nor can it lead. The derived name travels in clear in Hazelcast's join messages: it keeps out
 *   whoever does not know the secret, not whoever can read the cluster network's traffic.</li>
 *   <li>Event-bus TLS ({@code cluster.tls.*}): the clustered event bus (heartbeats, coordinator answers, REST
 *   forwarding) speaks TLS both ways and requires a client certificate signed by the cluster CA; a connection
 *   without one is refused. Any certificate the CA signed is a member: use a CA for this cluster only.</li>
 * </ul>
 *
 * <p>Immutable.
 *
 * @param secret the join secret, or null
 * @param tlsKeyPath PEM private key of this worker's event-bus certificate, or null (no TLS)
 * @param tlsCertPath PEM certificate (chain) for {@code tlsKeyPath}, or null
 * @param tlsCaPath PEM CA certificate(s) peers' certificates must be signed by, or null
 */
public record ClusterSecurity(Password secret, String tlsKeyPath, String tlsCertPath, String tlsCaPath) {

    /** No secret, no TLS (the defaults: anyone who reaches the ports with the cluster name joins). */
    public static final ClusterSecurity NONE = new ClusterSecurity(null, null, null, null);

    /** Validates: the TLS paths come together. */
    public ClusterSecurity {
        boolean any = tlsKeyPath != null || tlsCertPath != null || tlsCaPath != null;
        boolean all = tlsKeyPath != null && tlsCertPath != null && tlsCaPath != null;
        if (any && !all) {
            throw new IllegalArgumentException("event-bus TLS needs a key, a certificate and a CA");
        }
    }

    /** Whether the event bus speaks TLS with client certificates. */
    public boolean tls() {
        return tlsKeyPath != null;
    }

    /** The Hazelcast cluster name for {@code clusterName}: itself without a secret, else the derived name. */
    public String hazelcastClusterName(String clusterName) {
        if (secret == null) {
            return clusterName;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.value().getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            byte[] tag = mac.doFinal(("shardline-cluster:" + clusterName).getBytes(StandardCharsets.UTF_8));
            return clusterName + "-" + HexFormat.of().formatHex(tag, 0, 16);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
    }

    /** {@code options} with TLS and required client authentication when configured; unchanged otherwise. */
    public EventBusOptions applyTo(EventBusOptions options) {
        if (!tls()) {
            return options;
        }
        return options.setSsl(true)
                .setKeyCertOptions(new PemKeyCertOptions().addKeyPath(tlsKeyPath).addCertPath(tlsCertPath))
                .setTrustOptions(new PemTrustOptions().addCertPath(tlsCaPath))
                .setClientAuth(ClientAuth.REQUIRED);
    }

    /**
     * A warning for the start log when neither protection is on and {@code host} is not a loopback address (anyone
     * who reaches it with the cluster name joins), else empty. Resolves {@code host}: call it off the event loop.
     */
    public java.util.Optional<String> exposureWarning(String host, int port) {
        if (secret != null || tls()) {
            return java.util.Optional.empty();
        }
        try {
            if (java.net.InetAddress.getByName(host).isLoopbackAddress()) {
                return java.util.Optional.empty();
            }
        } catch (java.net.UnknownHostException e) {
            // Hazelcast reports an unresolvable host itself; warn anyway.
        }
        return java.util.Optional.of("cluster port " + host + ":" + port + " is open to anyone who reaches it with "
                + "the cluster.name: set cluster.secret and cluster.tls.* (docs/security.md, \"Cluster port\")");
    }

    /** For the start log: what protects the ports (never the secret). */
    public String describe() {
        return "join secret " + (secret == null ? "off" : "on") + ", event-bus TLS "
                + (tls() ? "on (client certificates required)" : "off");
    }

    @Override
    public String toString() {
        return "ClusterSecurity[" + describe() + "]";
    }
}
