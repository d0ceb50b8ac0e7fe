package io.shardline.runtime.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardline.api.config.Password;
import org.junit.jupiter.api.Test;

/** The Hazelcast cluster name a join secret derives, and the TLS paths that come together. */
class ClusterSecurityNameTest {

    @Test
    void theSecretDerivesAStableNameThatDoesNotShowIt() {
        ClusterSecurity one = new ClusterSecurity(new Password("0123456789abcdef"), null, null, null);
        String name = one.hazelcastClusterName("prod");
        assertThat(name).matches("prod-[0-9a-f]{32}").doesNotContain("0123456789abcdef");
        assertEquals(name, new ClusterSecurity(new Password("0123456789abcdef"), null, null, null)
                .hazelcastClusterName("prod"));
        assertThat(new ClusterSecurity(new Password("0123456789abcdeF"), null, null, null)
                .hazelcastClusterName("prod")).isNotEqualTo(name);
        assertThat(one.hazelcastClusterName("test")).isNotEqualTo(name).startsWith("test-");
        assertEquals("prod", ClusterSecurity.NONE.hazelcastClusterName("prod"));
        assertThat(one.toString()).doesNotContain("0123456789abcdef");
    }

    @Test
    void tlsNeedsKeyCertificateAndCa() {
        assertThatThrownBy(() -> new ClusterSecurity(null, "k.pem", "c.pem", null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new ClusterSecurity(null, "k.pem", "c.pem", "ca.pem").tls()).isTrue();
    }

    @Test
    void anOpenNonLoopbackPortIsWarnedAbout() {
        assertThat(ClusterSecurity.NONE.exposureWarning("127.0.0.1", 5701)).isEmpty();
        assertThat(ClusterSecurity.NONE.exposureWarning("::1", 5701)).isEmpty();
        assertThat(ClusterSecurity.NONE.exposureWarning("10.1.2.3", 5701)).hasValue("cluster port 10.1.2.3:5701 is "
                + "open to anyone who reaches it with the cluster.name: set cluster.secret and cluster.tls.* "
                + "(docs/security.md, \"Cluster port\")");
        assertThat(new ClusterSecurity(new Password("0123456789abcdef"), null, null, null)
                .exposureWarning("10.1.2.3", 5701)).isEmpty();
    }
}
