package io.shardline.runtime.metrics;

import com.codahale.metrics.ExponentiallyDecayingReservoir;
import com.codahale.metrics.Histogram;
import java.util.concurrent.atomic.LongAdder;

/**
 * A Dropwizard {@link Histogram} (exponentially decaying sample, as {@code registry.histogram(name)} makes)
 * that also keeps the total of every value recorded, for a summary's {@code _sum} on {@code /metrics}.
 * Register it with {@code registry.histogram(name, SummingHistogram::new)}. Thread-safe.
 */
public final class SummingHistogram extends Histogram {

    private final LongAdder total = new LongAdder();

    /** An empty histogram. */
    public SummingHistogram() {
        super(new ExponentiallyDecayingReservoir());
    }

    @Override
    public void update(int value) {
        update((long) value);
    }

    @Override
    public void update(long value) {
        super.update(value);
        total.add(value);
    }

    /** The total of every value recorded. */
    public long total() {
        return total.sum();
    }
}
