package io.shardline.runtime.shard;

import io.shardline.api.handler.NonRetriableException;
import io.shardline.api.handler.StreamRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The retry state of the one batch a shard has in flight. The whole batch is tried up to
 * {@code maxAttempts} times; then (or at once on a {@link NonRetriableException}) it is split and each
 * record gets its own attempts, and a record that still fails is dead-lettered. Records are finished
 * strictly in order.
 *
 * <p>Poison records: a record Redis has delivered more than {@code maxDeliveries} times (its delivery count, read
 * with it) is never handed to the handler again: the batch is split at once and that record is dead-lettered when
 * its turn comes ({@link #deadLetterDue()}, {@link #poison()}). The records handed to the handler carry their
 * Redis delivery count plus the in-process calls before this one ({@link #current()}), so a retry sees it rise.
 * Not thread-safe: used on the member's context only.
 */
final class BatchRun {

    /** What to do after a failed attempt. */
    enum Decision { RETRY, SPLIT, DEAD_LETTER }

    private final List<StreamRecord> records;
    private final int maxDeliveries;
    /** Handler calls each record has been part of, in this process. */
    private final int[] calls;
    /** True once some record has been part of more than one handler call. */
    private boolean retried;
    private boolean split;
    private int index;
    private int attempt = 1;
    private Throwable lastError;
    private boolean deadLetterDue;
    private boolean started;

    /** A batch with no delivery limit. */
    BatchRun(List<StreamRecord> records) {
        this(records, Integer.MAX_VALUE);
    }

    /** A batch whose records delivered more than {@code maxDeliveries} times are dead-lettered unhandled. */
    BatchRun(List<StreamRecord> records, int maxDeliveries) {
        this.records = List.copyOf(records);
        this.maxDeliveries = maxDeliveries;
        this.calls = new int[this.records.size()];
        this.split = this.records.size() > 1 && this.records.stream().anyMatch(this::poison);
    }

    /** Marks that the handler is called with {@link #current()} now (the batch is in flight, not only prefetched). */
    void markStarted() {
        started = true;
        for (int i = index; i < (split ? index + 1 : records.size()); i++) {
            retried |= ++calls[i] > 1;
        }
    }

    /** False while the batch was only read ahead and no handler call has seen it (it may then be left to the next owner). */
    boolean started() {
        return started;
    }

    /**
     * The records of the next (or latest) attempt: the whole batch, or one record once split; each with its Redis
     * delivery count plus the in-process handler calls it was part of before the latest one.
     */
    List<StreamRecord> current() {
        int end = split ? index + 1 : records.size();
        List<StreamRecord> out = records.subList(index, end);
        if (!retried) {
            return split ? List.of(records.get(index)) : out;
        }
        List<StreamRecord> seen = new ArrayList<>(end - index);
        for (int i = index; i < end; i++) {
            StreamRecord r = records.get(i);
            int before = calls[i] - 1;
            seen.add(before <= 0 ? r : new StreamRecord(r.shard(), r.entryId(), r.fields(), r.deliveryCount() + before));
        }
        return List.copyOf(seen);
    }

    /** True when {@link #current()} is one record Redis delivered more than {@code maxDeliveries} times. */
    boolean poison() {
        return (split || records.size() == 1) && index < records.size() && poison(records.get(index));
    }

    private boolean poison(StreamRecord r) {
        return r.deliveryCount() > maxDeliveries;
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

    /** True while a dead-letter write of {@link #current()} is owed (it failed, or is {@link #poison()}). */
    boolean deadLetterDue() {
        return deadLetterDue || poison();
    }

    /** Attempts made on {@link #current()} so far, when it is dead-lettered (0 for a {@link #poison()} record). */
    int attemptsMade() {
        return poison() ? 0 : attempt;
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
