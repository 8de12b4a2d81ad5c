package dev.watchkeeper.test.apiserver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * The front door: records each request, applies injected faults, then routes to discovery, OpenAPI or resources.
 */
final class ApiHttpHandler implements HttpHandler {

    private static final Logger log = LoggerFactory.getLogger(ApiHttpHandler.class);

    private final Faults faults;
    private final DiscoveryHandler discovery;
    private final OpenApiHandler openApi;
    private final ResourceHandler resources;

    ApiHttpHandler(Faults faults, DiscoveryHandler discovery, OpenApiHandler openApi, ResourceHandler resources) {
        this.faults = faults;
        this.discovery = discovery;
        this.openApi = openApi;
        this.resources = resources;
    }

    @Override
    public void handle(HttpExchange exchange) {
        HttpCall call = new HttpCall(exchange, faults.bodyPause());
        boolean dropped = false;
        try {
            Optional<ResourcePath> path = ResourcePath.parse(call.path());
            faults.record(new ServedRequest(call.method(), call.path(), call.decodedQuery(),
                    path.map(ResourcePath::plural).orElse(null)));
            serve(call, path);
        } catch (IOException e) {
            log.debug("{} {}: the client went away ({})", call.method(), call.path(), e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.debug("{} {}: interrupted while delaying the response", call.method(), call.path());
        } catch (DroppedConnection e) {
            // Closing the exchange would finish the chunked body; out of the handler, the JDK server drops the socket.
            dropped = true;
            log.debug("{} {}: dropping the connection ({})", call.method(), call.path(), e.getMessage());
            throw e;
        } finally {
            if (!dropped) {
                exchange.close();
            }
        }
    }

    private void serve(HttpCall call, Optional<ResourcePath> path) throws IOException, InterruptedException {
        try {
            Duration delay = faults.delay();
            if (!delay.isZero()) {
                Thread.sleep(delay.toMillis());
            }
            if (faults.inOutage()) {
                throw Statuses.serviceUnavailable();
            }
            int failure = faults.takeFailure();
            if (failure != 0) {
                throw failure == 503 ? Statuses.serviceUnavailable()
                        : Statuses.internalError("injected failure: an internal error occurred");
            }
            Duration retryAfter = faults.takeThrottled();
            if (retryAfter != null) {
                throw Statuses.tooManyRequests(Math.max(1, retryAfter.toSeconds()));
            }
            if (path.isPresent()) {
                resources.handle(call, path.get());
            } else if (OpenApiHandler.handles(call.path())) {
                openApi.handle(call);
            } else {
                discovery.handle(call);
            }
        } catch (StatusException e) {
            call.respond(e);
        } catch (DroppedConnection e) {
            throw e;
        } catch (RuntimeException e) {
            log.error("{} {} failed", call.method(), call.path(), e);
            call.respond(Statuses.internalError(e.toString()));
        }
    }
}
