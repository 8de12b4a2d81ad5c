package dev.watchkeeper.test.stub;

import com.github.tomakehurst.wiremock.core.Options;
import com.github.tomakehurst.wiremock.http.AdminRequestHandler;
import com.github.tomakehurst.wiremock.http.HttpServer;
import com.github.tomakehurst.wiremock.http.HttpServerFactory;
import com.github.tomakehurst.wiremock.http.StubRequestHandler;
import com.github.tomakehurst.wiremock.jetty11.Jetty11HttpServer;
import java.util.EnumSet;
import wiremock.jakarta.servlet.DispatcherType;
import wiremock.org.eclipse.jetty.servlet.FilterHolder;
import wiremock.org.eclipse.jetty.servlet.ServletContextHandler;

/** WireMock's own Jetty 11 server, with the {@link StreamingFilter} in front of its stub servlet. */
final class StreamingServerFactory implements HttpServerFactory {

    private final OpenStreams streams;

    StreamingServerFactory(OpenStreams streams) {
        this.streams = streams;
    }

    @Override
    public String getName() {
        return "watchkeeper-streaming-jetty";
    }

    @Override
    public HttpServer buildHttpServer(Options options, AdminRequestHandler adminRequestHandler,
            StubRequestHandler stubRequestHandler) {
        return new Jetty11HttpServer(options, adminRequestHandler, stubRequestHandler) {
            @Override
            protected void decorateMockServiceContextBeforeConfig(ServletContextHandler context) {
                context.addFilter(new FilterHolder(new StreamingFilter(streams)), "/*",
                        EnumSet.of(DispatcherType.REQUEST));
            }
        };
    }
}
