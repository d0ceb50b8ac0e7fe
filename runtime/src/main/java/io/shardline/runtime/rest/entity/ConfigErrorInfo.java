package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.shardline.api.config.ConfigError;
import java.util.Objects;

/**
 * One problem of a submitted configuration. The value of a password key is never echoed. Immutable.
 *
 * @param key the key concerned
 * @param value the submitted value as text ({@code [hidden]} for passwords), {@code null} if not set
 * @param reason what is wrong with it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConfigErrorInfo(String key, String value, String reason) {

    /** Validates. */
    public ConfigErrorInfo {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reason, "reason");
    }

    /** The REST form of {@code error} (its value is already hidden for passwords by the definition). */
    public static ConfigErrorInfo of(ConfigError error) {
        return new ConfigErrorInfo(error.key(), error.value(), error.reason());
    }
}
