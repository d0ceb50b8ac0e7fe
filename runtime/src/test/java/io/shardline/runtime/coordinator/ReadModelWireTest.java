package io.shardline.runtime.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReadModelWireTest {

    @Test
    void workerOfPicksTheLongestLiveWorkerPrefix() {
        List<String> workers = List.of("w1", "w1-east", "w2");
        assertThat(ReadModelWire.workerOf("w1-orders-m0", workers)).isEqualTo("w1");
        assertThat(ReadModelWire.workerOf("w1-east-orders-m0", workers)).isEqualTo("w1-east");
        assertThat(ReadModelWire.workerOf("w3-orders-m0", workers)).isEqualTo("unknown");
        assertThat(ReadModelWire.workerOf("w2", workers)).isEqualTo("unknown");
    }
}
