package io.shardline.runtime.metrics;

import com.codahale.metrics.Timer;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * A Dropwizard {@link Timer} that also keeps the total of every duration recorded, so that {@code /metrics}
 * can export a summary's {@code _sum} (a Dropwizard timer keeps only a count and a decaying sample, from which
 * no running total follows). Every way of recording goes through {@link #update(long, TimeUnit)}. Register it
 * with {@code registry.timer(name, SummingTimer::new)}. Thread-safe.
 */
public final class SummingTimer extends Timer {

    private final LongAdder totalNanos = new LongAdder();

    @Override
    public void update(long duration, TimeUnit unit) {
        super.update(duration, unit);
        if (duration >= 0) {
            totalNanos.add(unit.toNanos(duration));
        }
    }

    @Override
    public void update(Duration duration) {
        update(duration.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public <T> T time(Callable<T> event) throws Exception {
        long start = System.nanoTime();
        try {
            return event.call();
        } finally {
            update(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public <T> T timeSupplier(Supplier<T> event) {
        long start = System.nanoTime();
        try {
            return event.get();
        } finally {
            update(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void time(Runnable event) {
        long start = System.nanoTime();
        try {
            event.run();
        } finally {
            update(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    /** The total of every duration recorded, in seconds. */
    public double totalSeconds() {
        return totalNanos.sum() / 1e9;
    }
}
