package io.shardline.runtime.cli;

/**
 * The exit codes of the {@code bin/shardline} commands that talk to a worker (docs/cli.md lists them):
 * <ul>
 *   <li>0: done;</li>
 *   <li>1: the worker refused the request for another reason (400, 5xx: the message says why);</li>
 *   <li>2: bad command line (picocli's usage error);</li>
 *   <li>3: the worker could not be reached;</li>
 *   <li>4: unknown listener, group or shard (404);</li>
 *   <li>5: conflicts with the current state (409, e.g. a reset while the listener runs, deleting a live group);</li>
 *   <li>6: not authorized (401, 403: check --token, SHARDLINE_TOKEN or --token-file).</li>
 * </ul>
 */
final class ExitCodes {

    static final int OK = 0;
    static final int REFUSED = 1;
    static final int USAGE = 2;
    static final int UNREACHABLE = 3;
    static final int NOT_FOUND = 4;
    static final int CONFLICT = 5;
    static final int UNAUTHORIZED = 6;

    /** The usage help footer that lists them. */
    static final String FOOTER = "%nExit codes: 0 done; 1 refused (the message says why); 2 bad command line; "
            + "3 worker unreachable; 4 not found; 5 conflicts with the current state (409); 6 not authorized.";

    private ExitCodes() {
    }

    /** The exit code of an HTTP error status. */
    static int forStatus(int status) {
        return switch (status) {
            case 401, 403 -> UNAUTHORIZED;
            case 404 -> NOT_FOUND;
            case 409 -> CONFLICT;
            default -> REFUSED;
        };
    }
}
