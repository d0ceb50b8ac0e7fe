package io.shardline.runtime.plugin;

/**
 * Sets the thread context class loader for the length of a try-with-resources block and restores the
 * previous one on {@link #close()}; wraps every call into plugin code so that libraries inside a plugin
 * that look up classes through the context loader (ServiceLoader, JAXB, logging backends) find the
 * plugin's classes. Not thread-safe: open and close on one thread.
 *
 * <pre>{@code
 * try (LoaderSwap swap = LoaderSwap.swap(plugin.loader())) {
 *     handler.start(context);
 * }
 * }</pre>
 */
public final class LoaderSwap implements AutoCloseable {

    private final Thread thread;
    private final ClassLoader previous;

    private LoaderSwap(Thread thread, ClassLoader previous) {
        this.thread = thread;
        this.previous = previous;
    }

    /** Makes {@code loader} the current thread's context class loader until {@link #close()}. */
    public static LoaderSwap swap(ClassLoader loader) {
        Thread current = Thread.currentThread();
        ClassLoader previous = current.getContextClassLoader();
        current.setContextClassLoader(loader);
        return new LoaderSwap(current, previous);
    }

    /** Restores the previous context class loader. */
    @Override
    public void close() {
        thread.setContextClassLoader(previous);
    }
}
