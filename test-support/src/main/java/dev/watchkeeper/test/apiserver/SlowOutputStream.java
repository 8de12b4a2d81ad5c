package dev.watchkeeper.test.apiserver;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;

/**
 * A response body that trickles: it sends pieces of at most {@link #PIECE} bytes (fewer when flushed sooner, as a
 * watch flushes each line) and pauses after each.
 */
final class SlowOutputStream extends FilterOutputStream {

    static final int PIECE = 1024;

    private final Duration pause;
    private int written;

    SlowOutputStream(OutputStream out, Duration pause) {
        super(out);
        this.pause = pause;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        if (++written == PIECE) {
            flush();
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        int end = offset + length;
        for (int at = offset; at < end; ) {
            int piece = Math.min(end - at, PIECE - written);
            out.write(bytes, at, piece);
            at += piece;
            written += piece;
            if (written == PIECE) {
                flush();
            }
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
        if (written > 0) {
            written = 0;
            pause();
        }
    }

    private void pause() throws IOException {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while trickling a response body");
        }
    }
}
