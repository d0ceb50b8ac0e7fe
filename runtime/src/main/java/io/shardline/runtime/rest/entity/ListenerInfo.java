package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code GET /listeners/{name}}: a listener's configuration (passwords hidden, placeholders unresolved)
 * and target state. Immutable.
 *
 * @param name the listener
 * @param source {@code rest} (stored in Redis, runs on every worker) or {@code file} (from listeners.dir)
 * @param targetState its desired state
 * @param config its configuration, keys sorted
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ListenerInfo(String name, String source, TargetState targetState, Map<String, String> config) {

    /** Validates and copies (sorted). */
    public ListenerInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(targetState, "targetState");
        config = java.util.Collections.unmodifiableMap(new TreeMap<>(config));
    }
}
