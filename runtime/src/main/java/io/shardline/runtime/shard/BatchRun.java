package io.shardline.runtime.shard;

import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.StreamRecord;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The retry state of the one batch a shard has in flight. The whole batch is tried up to
 * {@code maxAttempts} times; then (or at once on a {@link NonRetriableException}) it is split and each
 * record gets its own attempts, and a record that still fails is dead-lettered. Records are finished
 * strictly in order. Not thread-safe: used on the member's context only.
 */
final class BatchRun {

    /** What to do after a failed attempt. */
    enum Decision { RETRY, SPLIT, DEAD_LETTER }

    private final List<StreamRecord> records;
    private boolean split;
    private int index;
    private int attempt = 1;
    private Throwable lastError;
    private boolean deadLetterDue;
    private boolean started;

    BatchRun(List<StreamRecord> records) {
        this.records = List.copyOf(records);
    }

    /** Marks that the handler has been called for this batch (it is in flight, not only prefetched). */
    void markStarted() {
        started = true;
    }

    /** False while the batch was only read ahead and no handler call has seen it (it may then be left to the next owner). */
    boolean started() {
        return started;
    }

    /** The records of the next attempt: the whole batch, or one record once split. */
    List<StreamRecord> current() {
        return split ? List.of(records.get(index)) : records.subList(index, records.size());
    }

    /** The attempt number of {@link #current()}, from 1. */
    int attempt() {
        return attempt;
    }

    /** The last failure. */
    Throwable lastError() {
        return lastError;
    }

    /**
     * Records a failure of {@link #current()} and decides what comes next. A {@link NonRetriableException}
     * (also when an async handler's stage wraps it in a {@link CompletionException}) is never retried: a batch
     * is split at once, a single record is dead-lettered at once.
     */
    Decision failed(Throwable error, int maxAttempts) {
        Throwable cause = unwrap(error);
        lastError = cause;
        boolean permanent = cause instanceof NonRetriableException;
        if (!permanent && attempt < maxAttempts) {
            attempt++;
            return Decision.RETRY;
        }
        if (!split && records.size() - index > 1) {
            split = true;
            attempt = 1;
            return Decision.SPLIT;
        }
        return Decision.DEAD_LETTER;
    }

    /** The failure under the wrappers of async machinery ({@link CompletionException}, {@link ExecutionException}). */
    static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /** Marks {@link #current()} done (handled or dead-lettered). */
    void advance() {
        index = split ? index + 1 : records.size();
        attempt = 1;
        deadLetterDue = false;
    }

    /** Notes that {@link #current()} (one record) must be written to the dead-letter stream before anything else. */
    void markDeadLetterDue() {
        deadLetterDue = true;
    }

    /** True while a dead-letter write of {@link #current()} is owed (it failed and is retried). */
    boolean deadLetterDue() {
        return deadLetterDue;
    }

    /** Attempts made on {@link #current()} so far, when it is dead-lettered. */
    int attemptsMade() {
        return attempt;
    }

    /** True when every record is done. */
    boolean finished() {
        return index >= records.size();
    }

    /** The number of records not yet done. */
    int remaining() {
        return records.size() - index;
    }
}
