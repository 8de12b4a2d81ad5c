package dev.watchkeeper.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchError;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ErrorDescriptorTests {

    @Test
    void anErrorWithoutAnHttpAnswerHasNoCode() {
        WatchError refused = new WatchError(ErrorKind.INITIAL_LIST_FAILED, 0,
                "connection refused: 127.0.0.1:6443 (list v1/configmaps)", Instant.EPOCH);
        WatchError forbidden = new WatchError(ErrorKind.INITIAL_LIST_FAILED, 403, "forbidden", Instant.EPOCH);

        assertThat(WatcherDescriptor.ErrorDescriptor.of(refused).code()).isNull();
        assertThat(WatcherDescriptor.ErrorDescriptor.of(forbidden).code()).isEqualTo(403);
    }
}
