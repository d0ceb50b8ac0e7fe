package io.shardline.runtime.control;


/**
 * A control-plane request that cannot be carried out, with the HTTP status the REST edge answers and a
 * message for the caller (it names the field, listener or shard concerned and never contains a secret).
 * The single failure handler ({@link io.shardline.runtime.rest.RestErrors}) turns it into {@code {"error_code", "message"}}.
 */
public final class ControlPlaneException extends RuntimeException {

    private final int status;

    /** A failure answered with {@code status}. */
    public ControlPlaneException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** 400: the request itself is wrong; the message names the bad field. */
    public static ControlPlaneException badRequest(String message) {
        return new ControlPlaneException(400, message);
    }

    /** 404: an unknown listener, plugin, group or shard. */
    public static ControlPlaneException notFound(String message) {
        return new ControlPlaneException(404, message);
    }

    /** 409: conflicts with the current state (already exists, defined in a file, no leader known). */
    public static ControlPlaneException conflict(String message) {
        return new ControlPlaneException(409, message);
    }

    /** 403: a read-only token used for a write. */
    public static ControlPlaneException forbidden() {
        return new ControlPlaneException(403, "the read-only token (rest.auth.read.token) cannot be used for writes");
    }

    /** The HTTP status to answer. */
    public int status() {
        return status;
    }
}
