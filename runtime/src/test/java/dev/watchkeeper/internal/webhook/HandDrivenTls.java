package dev.watchkeeper.internal.webhook;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;

/**
 * An HTTPS client on one connection whose TLS records a test lays out itself: {@link #send} puts each text in a
 * record of its own and all of them on the wire in one write, so they reach the server in one read, as a client's late
 * body and its next request can. It reads answers with {@code Content-Length} bodies.
 */
final class HandDrivenTls implements AutoCloseable {

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final Socket socket;
    private final SSLEngine engine;
    private final InputStream in;
    private final ByteBuffer received;
    private final ByteBuffer plain;
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();

    HandDrivenTls(SSLContext tls, int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        in = socket.getInputStream();
        engine = tls.createSSLEngine("127.0.0.1", port);
        engine.setUseClientMode(true);
        received = ByteBuffer.allocate(engine.getSession().getPacketBufferSize() * 4);
        plain = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize() * 4);
        handshake();
    }

    /** Each of {@code texts} in a record of its own, all in one write. */
    void send(String... texts) throws IOException {
        ByteBuffer records = ByteBuffer.allocate(engine.getSession().getPacketBufferSize() * texts.length);
        for (String part : texts) {
            SSLEngineResult result = engine.wrap(ByteBuffer.wrap(part.getBytes(StandardCharsets.UTF_8)), records);
            if (result.getStatus() != SSLEngineResult.Status.OK) {
                throw new SSLException("cannot wrap: " + result);
            }
        }
        socket.getOutputStream().write(records.array(), 0, records.position());
        socket.getOutputStream().flush();
    }

    /** The next answer, its status line first, or {@code null} when none came within {@code timeout}. */
    String response(Duration timeout) throws IOException {
        socket.setSoTimeout((int) timeout.toMillis());
        try {
            while (true) {
                String answer = completeAnswer();
                if (answer != null) {
                    return answer;
                }
                unwrapOrRead();
            }
        } catch (SocketTimeoutException none) {
            return null;
        }
    }

    /** Takes the first whole answer out of what has been decrypted so far. */
    private String completeAnswer() {
        String all = text.toString(StandardCharsets.UTF_8);
        int end = all.indexOf("\r\n\r\n");
        if (end < 0) {
            return null;
        }
        int length = 0;
        for (String header : all.substring(0, end).split("\r\n")) {
            if (header.toLowerCase().startsWith("content-length:")) {
                length = Integer.parseInt(header.substring(header.indexOf(':') + 1).trim());
            }
        }
        if (all.length() < end + 4 + length) {
            return null;
        }
        String answer = all.substring(0, end + 4 + length);
        text.reset();
        text.writeBytes(all.substring(answer.length()).getBytes(StandardCharsets.UTF_8));
        return answer;
    }

    private void handshake() throws IOException {
        engine.beginHandshake();
        HandshakeStatus status = engine.getHandshakeStatus();
        while (status != HandshakeStatus.FINISHED && status != HandshakeStatus.NOT_HANDSHAKING) {
            switch (status) {
                case NEED_WRAP -> {
                    ByteBuffer out = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                    status = engine.wrap(NOTHING, out).getHandshakeStatus();
                    socket.getOutputStream().write(out.array(), 0, out.position());
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> status = unwrapOrRead();
                case NEED_TASK -> status = runTasks();
                default -> throw new SSLException("unexpected handshake status " + status);
            }
        }
    }

    /** Decrypts what has arrived into {@link #text}, reading from the socket when a whole record has not. */
    private HandshakeStatus unwrapOrRead() throws IOException {
        received.flip();
        SSLEngineResult result = engine.unwrap(received, plain);
        received.compact();
        plain.flip();
        text.write(plain.array(), plain.position(), plain.remaining());
        plain.clear();
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new EOFException("the server closed the connection");
        }
        if (result.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
            return runTasks();
        }
        if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
            byte[] chunk = new byte[received.remaining()];
            int read = in.read(chunk);
            if (read < 0) {
                throw new EOFException("the server closed the connection");
            }
            received.put(chunk, 0, read);
        }
        return result.getHandshakeStatus();
    }

    private HandshakeStatus runTasks() {
        for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
            task.run();
        }
        return engine.getHandshakeStatus();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
