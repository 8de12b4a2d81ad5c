package dev.watchkeeper.test.watch;

import io.kubernetes.client.openapi.ApiClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import okhttp3.OkHttpClient;

/**
 * An HTTP server on a loopback port that answers each connection with the next scripted bytes, verbatim, and then
 * closes it: for what a well-behaved server such as the WireMock stub cannot send (invalid UTF-8, a body that lies
 * about its encoding, a 1xx before the answer, a connection closed in the middle of the headers). Discovery of the
 * core group ({@code GET /api/v1}) is answered aside from the script, naming configmaps. Once the script is used up,
 * connections are held open without an answer, like an idle watch. Records each request's head.
 *
 * <pre>{@code
 * RawHttpServer server = new RawHttpServer().answer(RawHttpServer.response("200 OK", "", "{...}"));
 * }</pre>
 */
final class RawHttpServer implements AutoCloseable {

    private static final byte[] CORE_DISCOVERY = response("200 OK", "Content-Type: application/json\r\n",
            "{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\",\"resources\":[{\"name\":\"configmaps\","
                    + "\"namespaced\":true,\"kind\":\"ConfigMap\",\"verbs\":[\"list\",\"watch\"]}]}");

    private final ServerSocket socket;
    private final Queue<byte[]> answers = new ConcurrentLinkedQueue<>();
    private final List<String> requests = new ArrayList<>();
    private final List<Socket> connections = new ArrayList<>();
    private final List<ApiClient> clients = new ArrayList<>();

    RawHttpServer() {
        try {
            socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        Thread acceptor = new Thread(this::accept, "raw-http-" + socket.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A response with {@code Connection: close} and the body's length; {@code headers} end with CRLF each. */
    static byte[] response(String statusLine, String headers, byte[] body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.writeBytes(("HTTP/1.1 " + statusLine + "\r\nConnection: close\r\nContent-Length: " + body.length
                + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes(body);
        return bytes.toByteArray();
    }

    static byte[] response(String statusLine, String headers, String body) {
        return response(statusLine, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    /** The next connection gets {@code bytes}, then is closed. */
    RawHttpServer answer(byte[] bytes) {
        answers.add(bytes);
        return this;
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** A client of this server, with no read timeout and no silent retry (like the stub's). */
    ApiClient apiClient() {
        ApiClient client = new ApiClient().setBasePath(url());
        client.setHttpClient(client.getHttpClient().newBuilder().readTimeout(Duration.ZERO)
                .retryOnConnectionFailure(false).build());
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    /** The head (request line and headers) of each request so far. */
    List<String> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    boolean scriptConsumed() {
        return answers.isEmpty();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket connection = socket.accept();
                synchronized (connections) {
                    connections.add(connection);
                }
                Thread handler = new Thread(() -> serve(connection), "raw-http-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try {
            String head = readHead(connection.getInputStream());
            byte[] answer;
            synchronized (requests) {
                requests.add(head);
                answer = head.startsWith("GET /api/v1 ") ? CORE_DISCOVERY : answers.poll();
            }
            if (answer == null) {
                return; // held open until close()
            }
            OutputStream out = connection.getOutputStream();
            out.write(answer);
            out.flush();
            connection.close();
        } catch (IOException gone) {
            // the client went away
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed before the end of the request head");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        synchronized (connections) {
            for (Socket connection : connections) {
                try {
                    connection.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
        synchronized (clients) {
            for (ApiClient client : clients) {
                OkHttpClient http = client.getHttpClient();
                http.dispatcher().cancelAll();
                http.connectionPool().evictAll();
                http.dispatcher().executorService().shutdown();
            }
        }
    }
}
