package io.shardline.runtime.coordinator;

import io.shardline.coordinator.AuditEvent;
import io.shardline.coordinator.record.CoordinatorRecord;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * Steps 2 and 3 for an answer of the coordinator host, as a group commit. Every answer, also one that decided
 * nothing, waits for a guarded append (an empty append only checks the leader epoch and revision) that was
 * <em>issued after</em> its decision and carries its records: an answer renews the member's lease, and only a
 * confirmed leader may renew leases. Skipping the confirmation when it was recent lets a deposed leader renew
 * leases its successor no longer honours, which the coordinator simulation shows can give a shard two
 * processing members (docs/protocol.md, section 7). What is batched is only the round trip: while one append is
 * in flight, the decisions taken meanwhile collect here and go out together, in decision order, in the next
 * append as soon as the current one returns. So there is at most one write in flight, the store revision
 * advances in order, and one Redis round trip confirms many answers. The audit events of the decisions travel
 * with their records, in the same append, so they are stored exactly when the decisions are. Decisions of a discarded coordinator
 * instance (another term, or no longer leading) fail instead of being written.
 *
 * <p>Context-confined: used only on the coordinator host's context.
 */
final class GroupCommit {

    private final IntSupplier term;
    private final BooleanSupplier leading;
    private final BiFunction<List<CoordinatorRecord>, List<AuditEvent>, Future<Void>> write;
    private final Consumer<RuntimeException> writeThrew;
    private final List<Pending> pending = new ArrayList<>();
    private boolean writing;

    /**
     * @param term the host's current term (a re-claim starts a new one)
     * @param leading whether the host leads now
     * @param write the guarded append of a batch's records and audit events (the host's write)
     * @param writeThrew told when {@code write} throws instead of returning a failed future
     */
    GroupCommit(IntSupplier term, BooleanSupplier leading,
                BiFunction<List<CoordinatorRecord>, List<AuditEvent>, Future<Void>> write,
                Consumer<RuntimeException> writeThrew) {
        this.term = term;
        this.leading = leading;
        this.write = write;
        this.writeThrew = writeThrew;
    }

    /** Completes when an append issued after this call, carrying {@code records} and {@code events}, was confirmed. */
    Future<Void> commit(List<CoordinatorRecord> records, List<AuditEvent> events) {
        Pending p = new Pending(term.getAsInt(), records, events, Promise.promise());
        pending.add(p);
        flush();
        return p.done().future();
    }

    /** Starts the next group commit unless one is in flight. */
    private void flush() {
        if (writing || pending.isEmpty()) {
            return;
        }
        List<Pending> batch = new ArrayList<>();
        List<CoordinatorRecord> records = new ArrayList<>();
        List<AuditEvent> events = new ArrayList<>();
        for (Pending p : pending) {
            if (p.term() != term.getAsInt() || !leading.getAsBoolean()) {
                p.done().fail(new IllegalStateException("decided by a coordinator instance that was discarded"));
            } else {
                batch.add(p);
                records.addAll(p.records());
                events.addAll(p.events());
            }
        }
        pending.clear();
        if (batch.isEmpty()) {
            return;
        }
        writing = true;
        Future<Void> written;
        try {
            written = write.apply(records, events);
        } catch (RuntimeException e) {
            // Never leave writing set: every later answer would wait forever.
            writeThrew.accept(e);
            written = Future.failedFuture(e);
        }
        written.onComplete(ar -> {
            writing = false;
            batch.forEach(p -> p.done().handle(ar));
            flush();
        });
    }

    /** A decision waiting for the group commit that confirms it. */
    private record Pending(int term, List<CoordinatorRecord> records, List<AuditEvent> events, Promise<Void> done) {
    }
}
