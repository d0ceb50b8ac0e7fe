package io.shardline.testkit.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throw-away certificate authority and the PEM files signed by it, made at test time with the {@code openssl}
 * command (no key material in git): EC P-256 keys (PKCS#8), certificates valid for a day. A server certificate
 * names {@code 127.0.0.1} and {@code localhost}; a client certificate carries client and server use, so one pair
 * serves as both ends of a mutual-TLS link (the event bus). Files live in a temporary directory deleted on
 * {@link #close()}. Not thread-safe.
 */
public final class TestCertificates implements AutoCloseable {

    /** A private key and its certificate (PEM files). */
    public record KeyPair(Path key, Path cert) {
    }

    private final Path dir;
    private final Path caKey;
    private final Path caCert;

    private TestCertificates(Path dir) {
        this.dir = dir;
        this.caKey = dir.resolve("ca.key");
        this.caCert = dir.resolve("ca.pem");
    }

    /**
     * Creates a new certificate authority named {@code name}.
     *
     * @throws IllegalStateException when {@code openssl} is missing or fails (its output in the message)
     */
    public static TestCertificates create(String name) {
        try {
            TestCertificates certs = new TestCertificates(Files.createTempDirectory("shardline-tls-"));
            certs.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", certs.caKey.toString(), "-out", certs.caCert.toString(), "-days", "1",
                    "-subj", "/CN=" + name + " test CA");
            return certs;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for test certificates", e);
        }
    }

    /** The CA certificate (PEM) to trust. */
    public Path caCert() {
        return caCert;
    }

    /** A key and certificate for {@code cn}, signed by this CA, valid for {@code 127.0.0.1} and {@code localhost}. */
    public KeyPair issue(String cn) {
        Path key = dir.resolve(cn + ".key");
        Path csr = dir.resolve(cn + ".csr");
        Path cert = dir.resolve(cn + ".pem");
        Path ext = dir.resolve(cn + ".ext");
        try {
            Files.writeString(ext, "subjectAltName=IP:127.0.0.1,DNS:localhost\n"
                    + "extendedKeyUsage=serverAuth,clientAuth\nkeyUsage=digitalSignature,keyAgreement\n",
                    StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.toString(), "-out", csr.toString(), "-subj", "/CN=" + cn);
        openssl("x509", "-req", "-in", csr.toString(), "-CA", caCert.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", cert.toString(), "-days", "1", "-extfile", ext.toString());
        return new KeyPair(key, cert);
    }

    /** Deletes the files. */
    @Override
    public void close() {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a temporary directory left behind is harmless
        }
    }

    private void openssl(String... args) {
        List<String> cmd = new ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        Path log = dir.resolve("openssl.log");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("openssl did not finish within 60 s: " + String.join(" ", cmd));
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("openssl failed (" + p.exitValue() + "): " + String.join(" ", cmd)
                        + "\n" + Files.readString(log));
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run openssl (install it: apt-get install -y openssl): "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running openssl", e);
        }
    }
}
