package dev.watchkeeper.test.stub;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A watch response: status 200, chunked, one event per line, each flushed as it is written, then an
 * {@link Ending}. Without an explicit ending the stream ends normally (EOF), as a server-side timeout does.
 *
 * <pre>{@code
 * events(added(cm("a", "4")), bookmark("5")).thenStayOpen()
 * events(modified(cm("a", "6"))).dribble(Duration.ofMillis(50)).thenReset()
 * }</pre>
 *
 * @param lines   the lines to send, in order
 * @param ending  what happens after the last line
 * @param dribble a real-time pause before each line after the first ({@link Duration#ZERO} = none)
 */
public record StreamAnswer(List<WatchLine> lines, Ending ending, Duration dribble) implements WatchAnswer {

    /** How a watch response ends after its lines. */
    public enum Ending {
        /** The chunked body ends properly: a clean end of stream, like a server-side watch timeout. */
        EOF,
        /** The connection dies mid-body (no final chunk): the client reading it gets an {@code IOException}. */
        RESET,
        /** The stream stays open and idle until the stub is {@link KubeApiStub#reset() reset} or closed. */
        STAY_OPEN
    }

    public StreamAnswer {
        lines = List.copyOf(Objects.requireNonNull(lines, "lines"));
        Objects.requireNonNull(ending, "ending");
        Objects.requireNonNull(dribble, "dribble");
        if (dribble.isNegative()) {
            throw new IllegalArgumentException("dribble delay cannot be negative: " + dribble);
        }
    }

    /** Ends with a clean end of stream (the default). */
    public StreamAnswer thenEof() {
        return new StreamAnswer(lines, Ending.EOF, dribble);
    }

    /** Ends with the connection dying mid-body. */
    public StreamAnswer thenReset() {
        return new StreamAnswer(lines, Ending.RESET, dribble);
    }

    /** Stays open, idle, after the lines. */
    public StreamAnswer thenStayOpen() {
        return new StreamAnswer(lines, Ending.STAY_OPEN, dribble);
    }

    /** Pauses {@code delay} (real time) before each line after the first. */
    public StreamAnswer dribble(Duration delay) {
        return new StreamAnswer(lines, ending, delay);
    }
}
