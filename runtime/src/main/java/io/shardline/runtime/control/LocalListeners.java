package io.shardline.runtime.control;

import io.shardline.runtime.rest.entity.MemberStatus;
import io.vertx.core.Future;
import java.util.List;

/**
 * The listeners running on this worker, as other workers ask for them over the event bus
 * ({@link ControlEndpoint}): their members' states, a restart, a re-read of the stored definitions and
 * target states. The worker's listener supervisor implements it.
 *
 * <p>Implementations must be thread-safe and must not block: every method is called on an event loop.
 */
public interface LocalListeners {

    /** The names of the listeners this worker runs (or failed to start), sorted. */
    List<String> names();

    /** The members on this worker of {@code listener}, or of every listener when it is {@code null}. */
    Future<List<MemberStatus>> members(String listener);

    /**
     * Restarts {@code listener} on this worker (its members leave the group, handlers stop, the definition is
     * resolved again, members start and rejoin); with {@code onlyFailed}, only when it failed here.
     *
     * @return the ids of the members restarting (empty when nothing was restarted)
     */
    Future<List<String>> restart(String listener, boolean onlyFailed);

    /**
     * Restarts one member of {@code listener} on this worker (it leaves its group and joins again; the others keep
     * running).
     *
     * @return the member id when it runs here and restarts, else empty
     */
    Future<List<String>> restartMember(String listener, String memberId);

    /** Reads the stored listener definitions and target states now instead of at the next poll. */
    void refresh();
}
