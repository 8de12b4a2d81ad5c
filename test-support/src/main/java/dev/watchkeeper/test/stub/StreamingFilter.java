package dev.watchkeeper.test.stub;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import wiremock.jakarta.servlet.Filter;
import wiremock.jakarta.servlet.FilterChain;
import wiremock.jakarta.servlet.ServletException;
import wiremock.jakarta.servlet.ServletOutputStream;
import wiremock.jakarta.servlet.ServletRequest;
import wiremock.jakarta.servlet.ServletResponse;
import wiremock.jakarta.servlet.WriteListener;
import wiremock.jakarta.servlet.http.HttpServletResponse;
import wiremock.jakarta.servlet.http.HttpServletResponseWrapper;
import wiremock.org.eclipse.jetty.server.Request;

/**
 * Writes watch bodies line by line, flushing each, in front of WireMock's servlet. WireMock answers a watch step
 * with status and headers plus a {@link #MARKER} header naming a parked {@link StreamAnswer}; this filter hides the
 * marker, swallows WireMock's (empty) body, and once WireMock returns writes the stream itself, then ends it as
 * scripted: normally, by aborting the connection mid-body, or by holding it open until released.
 */
final class StreamingFilter implements Filter {

    static final String MARKER = "X-Watchkeeper-Stream";

    /** How often a held-open stream checks whether its client has gone. */
    private static final long IDLE_CHECK_MILLIS = 100;

    private final OpenStreams streams;

    StreamingFilter(OpenStreams streams) {
        this.streams = streams;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(response instanceof HttpServletResponse http)) {
            chain.doFilter(request, response);
            return;
        }
        MarkedResponse marked = new MarkedResponse(http);
        chain.doFilter(request, marked);
        OpenStreams.Pending pending = marked.streamId == null ? null : streams.take(marked.streamId);
        if (pending != null) {
            streams.opened();
            try {
                write(request, http, pending);
            } catch (IOException clientGone) {
                // the client closed its end; nothing to report
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                streams.closed();
            }
        }
    }

    private static void write(ServletRequest request, HttpServletResponse http, OpenStreams.Pending pending)
            throws IOException, InterruptedException {
        StreamAnswer stream = pending.stream();
        ServletOutputStream out = http.getOutputStream();
        // Commit status and headers now: a client must see the 200 before any event, as from a real server.
        http.flushBuffer();
        boolean first = true;
        for (WatchLine line : stream.lines()) {
            if (!first && !stream.dribble().isZero()
                    && pending.released().await(stream.dribble().toNanos(), TimeUnit.NANOSECONDS)) {
                out.close();
                return;
            }
            first = false;
            out.write((line.text() + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
        switch (stream.ending()) {
            case EOF -> out.close();
            case RESET -> Request.getBaseRequest(request).getHttpChannel()
                    .abort(new IOException("watchkeeper stub: scripted abrupt reset"));
            case STAY_OPEN -> {
                Request base = Request.getBaseRequest(request);
                while (!pending.released().await(IDLE_CHECK_MILLIS, TimeUnit.MILLISECONDS)) {
                    if (base == null || !base.getHttpChannel().getEndPoint().isOpen()) {
                        return;
                    }
                }
                // released by reset or close: write the final chunk now, before the server may stop
                out.close();
            }
        }
    }

    /** Passes everything through except the marker header and, for a marked response, the body WireMock writes. */
    private static final class MarkedResponse extends HttpServletResponseWrapper {

        private String streamId;

        MarkedResponse(HttpServletResponse response) {
            super(response);
        }

        @Override
        public void setHeader(String name, String value) {
            if (!mark(name, value)) {
                super.setHeader(name, value);
            }
        }

        @Override
        public void addHeader(String name, String value) {
            if (!mark(name, value)) {
                super.addHeader(name, value);
            }
        }

        private boolean mark(String name, String value) {
            if (MARKER.equalsIgnoreCase(name)) {
                streamId = value;
                return true;
            }
            return false;
        }

        @Override
        public void setContentLength(int length) {
            if (streamId == null) {
                super.setContentLength(length);
            }
        }

        @Override
        public void setContentLengthLong(long length) {
            if (streamId == null) {
                super.setContentLengthLong(length);
            }
        }

        @Override
        public void flushBuffer() throws IOException {
            if (streamId == null) {
                super.flushBuffer();
            }
        }

        @Override
        public ServletOutputStream getOutputStream() throws IOException {
            return streamId == null ? super.getOutputStream() : new Discard();
        }

        @Override
        public PrintWriter getWriter() throws IOException {
            return streamId == null ? super.getWriter() : new PrintWriter(new Discard());
        }
    }

    private static final class Discard extends ServletOutputStream {

        @Override
        public boolean isReady() {
            return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
        }

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }
}
