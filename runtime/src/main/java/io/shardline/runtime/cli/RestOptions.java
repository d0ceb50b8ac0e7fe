package io.shardline.runtime.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options every {@code bin/shardline} command that talks to a worker takes: the worker's REST address, the
 * token ({@code --token}, else {@code --token-file}, else the {@code SHARDLINE_TOKEN} environment variable), the
 * timeout and {@code --json}. A picocli mixin.
 */
public final class RestOptions {

    @Option(names = "--url", paramLabel = "URL", defaultValue = "http://127.0.0.1:8083",
            description = "Any worker's REST address (default: ${DEFAULT-VALUE}).")
    private String url;

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "The REST token (rest.auth.token); else --token-file, else the SHARDLINE_TOKEN environment "
                    + "variable.")
    private String token;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "A file holding the REST token, e.g. the worker's generated token file.")
    private Path tokenFile;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "How long to wait for the worker's answer (default: ${DEFAULT-VALUE}).")
    private int timeoutSeconds;

    @Option(names = "--json", description = "Print the worker's JSON answer instead of a table (for scripts).")
    private boolean json;

    /** Whether to print JSON. */
    boolean json() {
        return json;
    }

    /** The client these options describe. */
    AdminClient client() {
        URI base;
        try {
            base = URI.create(url.endsWith("/") ? url : url + "/");
            if (base.getScheme() == null || !base.getScheme().startsWith("http") || base.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            throw new AdminException(ExitCodes.USAGE, "--url '" + url + "': " + e.getMessage()
                    + " (e.g. http://127.0.0.1:8083)");
        }
        if (timeoutSeconds < 1) {
            throw new AdminException(ExitCodes.USAGE, "--timeout " + timeoutSeconds + ": must be at least 1");
        }
        return new AdminClient(base, resolveToken(), Duration.ofSeconds(timeoutSeconds));
    }

    private String resolveToken() {
        if (token != null) {
            return token.strip();
        }
        if (tokenFile != null) {
            try {
                return Files.readString(tokenFile).strip();
            } catch (IOException e) {
                throw new AdminException(ExitCodes.USAGE, "--token-file " + tokenFile + ": cannot read it ("
                        + e.getMessage() + ")");
            }
        }
        String env = System.getenv("SHARDLINE_TOKEN");
        return env == null ? null : env.strip();
    }
}
