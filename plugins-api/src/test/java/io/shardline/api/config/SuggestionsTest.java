package io.shardline.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SuggestionsTest {

    private static final List<String> KNOWN = List.of("session.timeout.ms", "heartbeat.interval.ms", "rest.port");

    @Test
    void suggestsCloseKeysOnly() {
        assertEquals(Optional.of("session.timeout.ms"), Suggestions.closest("sesion.timeout.ms", KNOWN));
        assertEquals(Optional.of("rest.port"), Suggestions.closest("rset.port", KNOWN));
        assertEquals(Optional.empty(), Suggestions.closest("plugin.path", KNOWN));
        assertEquals(Optional.empty(), Suggestions.closest("ab", List.of("xy")));
    }

    @Test
    void transpositionCountsAsOneEdit() {
        assertEquals(1, Suggestions.distance("ab", "ba"));
        assertEquals(3, Suggestions.distance("kitten", "sitting"));
    }
}
