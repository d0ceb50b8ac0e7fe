package io.shardline.runtime.rest.entity;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One page of a listener's dead letters, newest first ({@code GET /listeners/{name}/dead-letters}). Immutable.
 *
 * @param listener the listener
 * @param stream its dead-letter stream key ({@code dead.letter.stream})
 * @param total the entries in the dead-letter stream
 * @param deadLetters this page, newest first
 * @param nextBefore the {@code before} of the next (older) page, {@code null} on the last page
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeadLetterPage(String listener, String stream, long total, List<DeadLetter> deadLetters,
                             String nextBefore) {

    /** Validates and copies. */
    public DeadLetterPage {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(stream, "stream");
        deadLetters = List.copyOf(deadLetters);
    }
}
