package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One installed handler plugin ({@code GET /plugins}). Immutable.
 *
 * @param className the fully qualified class name (JSON {@code class}, as in Connect)
 * @param alias the short name a listener may use instead
 * @param type always {@code handler} for now
 * @param version the plugin's declared version
 * @param location the jar or folder it was loaded from, or {@code classpath}
 * @param config the settings it accepts under {@code handler.config.}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PluginInfo(
        @JsonProperty("class") String className,
        String alias,
        String type,
        String version,
        String location,
        List<ConfigKeyInfo> config) {

    /** Validates and copies. */
    public PluginInfo {
        Objects.requireNonNull(className, "className");
        config = List.copyOf(config);
    }
}
