package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.shardline.api.config.ConfigKey;
import java.util.Locale;
import java.util.Objects;

/**
 * The definition of one configuration key, as Connect's {@code ConfigKeyInfo}. A password key's default
 * is shown as {@code [hidden]}. Immutable.
 *
 * @param name the key
 * @param type its type, e.g. {@code INT}
 * @param required whether it must be set
 * @param defaultValue its default as text, {@code null} when it has none
 * @param importance {@code high}, {@code medium} or {@code low}
 * @param documentation what it means
 * @param group the heading it is listed under
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConfigKeyInfo(
        String name,
        String type,
        boolean required,
        String defaultValue,
        String importance,
        String documentation,
        String group) {

    /** Validates. */
    public ConfigKeyInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }

    /** The REST form of {@code key}. */
    public static ConfigKeyInfo of(ConfigKey key) {
        String defaultText = key.defaultText();
        return new ConfigKeyInfo(key.name(), key.type().name(), key.required(),
                defaultText.isEmpty() ? null : defaultText, key.importance().name().toLowerCase(Locale.ROOT),
                key.doc(), key.group());
    }
}
