package io.shardline.runtime.rest;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** The start-up check of {@code rest.bind:rest.port} (docs/operations.md, "Watching it"). */
class RestPortCheckTest {

    @Test
    void aTakenPortIsRefusedNamingTheKeysAndAFreeOneIsNot() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> RestPortCheck.ensureFree("127.0.0.1", port))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rest.bind:rest.port 127.0.0.1:" + port)
                    .hasMessageContaining("every worker on a host needs its own rest.port");
        }
        assertThatCode(() -> RestPortCheck.ensureFree("127.0.0.1", 0)).doesNotThrowAnyException();
    }
}
