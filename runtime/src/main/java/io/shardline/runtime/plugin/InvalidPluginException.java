package io.shardline.runtime.plugin;

import java.nio.file.Path;

/** A plugin location that cannot be used at all (for example a corrupt jar); caught per plugin by the scanner. */
final class InvalidPluginException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Path location;

    InvalidPluginException(Path location, String reason) {
        super(reason);
        this.location = location;
    }

    Path location() {
        return location;
    }
}
