package io.shardline.runtime.cli;

/** A {@code bin/shardline} command failed: the message for the operator and the exit code ({@link ExitCodes}). */
final class AdminException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    AdminException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    /** The process exit code. */
    int exitCode() {
        return exitCode;
    }
}
