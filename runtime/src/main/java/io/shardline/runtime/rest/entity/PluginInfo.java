package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One installed plugin ({@code GET /plugins}): a handler or an assignor. Immutable.
 *
 * @param className the fully qualified class name (JSON {@code class}, as in Connect)
 * @param alias the short name a listener may use instead (an assignor's {@code name()})
 * @param type its kind: {@value #HANDLER} or {@value #ASSIGNOR}
 * @param version the plugin's declared version
 * @param location the jar or folder it was loaded from, or {@code classpath}
 * @param config the settings it accepts under {@code handler.config.} (none for an assignor)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PluginInfo(
        @JsonProperty("class") String className,
        String alias,
        String type,
        String version,
        String location,
        List<ConfigKeyInfo> config) {

    /** The kind of a handler plugin (selected by a listener's {@code handler}). */
    public static final String HANDLER = "handler";
    /** The kind of an assignor plugin (selected by a listener's {@code assignor}). */
    public static final String ASSIGNOR = "assignor";

    /** Validates and copies. */
    public PluginInfo {
        Objects.requireNonNull(className, "className");
        config = List.copyOf(config);
    }
}
