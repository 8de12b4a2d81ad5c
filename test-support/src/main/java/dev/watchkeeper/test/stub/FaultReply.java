package dev.watchkeeper.test.stub;

import com.github.tomakehurst.wiremock.http.Fault;
import java.util.Objects;

/** A broken connection, injected by WireMock instead of a response (e.g. {@link Fault#CONNECTION_RESET_BY_PEER}). */
public record FaultReply(Fault fault) implements ListAnswer, WatchAnswer {

    public FaultReply {
        Objects.requireNonNull(fault, "fault");
    }
}
