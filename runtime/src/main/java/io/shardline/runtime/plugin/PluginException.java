package io.shardline.runtime.plugin;

/** A plugin that was asked for but cannot be used: unknown name, or instantiation failed. The message says which and why. */
public final class PluginException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** With a message naming the plugin and the reason. */
    public PluginException(String message) {
        super(message);
    }

    /** With a message and the underlying failure. */
    public PluginException(String message, Throwable cause) {
        super(message, cause);
    }
}
