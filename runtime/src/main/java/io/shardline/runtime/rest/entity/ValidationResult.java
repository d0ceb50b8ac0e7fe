package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * {@code PUT /plugins/{class}/config/validate}: every error of a listener configuration at once (as
 * Connect's validate endpoint, which answers 200 with the errors in the body). Immutable.
 *
 * @param plugin the handler plugin's class name
 * @param errorCount the number of errors
 * @param errors every error, in key order
 * @param definition every key the listener accepts, listener keys first, then the handler's
 *     ({@code handler.config.} prefix included)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ValidationResult(String plugin, int errorCount, List<ConfigErrorInfo> errors,
                               List<ConfigKeyInfo> definition) {

    /** Validates and copies. */
    public ValidationResult {
        Objects.requireNonNull(plugin, "plugin");
        errors = List.copyOf(errors);
        definition = List.copyOf(definition);
        if (errorCount != errors.size()) {
            throw new IllegalArgumentException("errorCount " + errorCount + " != " + errors.size() + " errors");
        }
    }
}
