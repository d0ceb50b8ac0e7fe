package io.shardline.coordinator.simulation;

/** A safety or liveness invariant of the simulation failed. */
final class InvariantViolation extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InvariantViolation(String message) {
        super(message);
    }
}
