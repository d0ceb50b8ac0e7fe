package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * The body of every error response, as Kafka Connect's: {@code {"error_code": 404, "message": "..."}}.
 * The message says what was wrong (the field, the name) and never carries a stack trace. Immutable.
 *
 * @param errorCode the HTTP status
 * @param message what went wrong, for a person
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ErrorMessage(int errorCode, String message) {

    /** Validates. */
    public ErrorMessage {
        Objects.requireNonNull(message, "message");
    }
}
