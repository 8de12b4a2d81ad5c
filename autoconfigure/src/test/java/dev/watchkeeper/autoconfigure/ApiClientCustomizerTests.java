package dev.watchkeeper.autoconfigure;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.credentials.Authentication;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** What reaches the API server from the client Watchkeeper builds: credentials, user agent, customizers' changes. */
class ApiClientCustomizerTests {

    /** Where client-java's {@code VersionApi} asks. */
    private static final String VERSION = "/version/";

    private final WireMockServer server = new WireMockServer(options().dynamicPort());

    private ApplicationContextRunner runner;

    @BeforeEach
    void start() {
        server.start();
        server.stubFor(get(VERSION).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody("""
                        {"major": "1", "minor": "37", "gitVersion": "v1.37.2", "gitCommit": "0", "gitTreeState": "clean",
                         "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.26", "compiler": "gc",
                         "platform": "linux/amd64"}""")));
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
                .withBean(KubernetesConnectionDetails.class, () -> new KubernetesConnectionDetails() {
                    @Override
                    public String getServerUrl() {
                        return server.baseUrl();
                    }

                    @Override
                    public Authentication getAuthentication() {
                        return new AccessTokenAuthentication("the-token");
                    }
                });
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void theUserAgentNamesTheApplicationAndWatchkeepersVersion() {
        runner.withPropertyValues("spring.application.name=my-operator").run(context -> {
            new VersionApi(context.getBean(ApiClient.class)).getCode().execute();

            server.verify(getRequestedFor(urlEqualTo(VERSION))
                    .withHeader("User-Agent", equalTo("my-operator/unknown watchkeeper/" + UserAgent.VERSION))
                    .withHeader("Authorization", equalTo("Bearer the-token")));
        });
        assertThat(UserAgent.VERSION).as("from the build, not the unfiltered placeholder").matches("\\d+\\.\\d+.*");
    }

    @Test
    void theApplicationsVersionFollowsItsName_withoutANameItIsWatchkeepersAlone() {
        runner.withPropertyValues("spring.application.name=my-operator", "spring.application.version=1.2.0")
                .run(context -> {
                    new VersionApi(context.getBean(ApiClient.class)).getCode().execute();
                    server.verify(getRequestedFor(urlEqualTo(VERSION)).withHeader("User-Agent",
                            equalTo("my-operator/1.2.0 watchkeeper/" + UserAgent.VERSION)));
                });
        server.resetRequests();
        runner.run(context -> {
            new VersionApi(context.getBean(ApiClient.class)).getCode().execute();
            server.verify(getRequestedFor(urlEqualTo(VERSION))
                    .withHeader("User-Agent", equalTo("watchkeeper/" + UserAgent.VERSION)));
        });
    }

    @Test
    void customizersRunInOrderAfterTheDefaultUserAgent() {
        runner.withUserConfiguration(Customizers.class).run(context -> {
            ApiClient client = context.getBean(ApiClient.class);
            new VersionApi(client).getCode().execute();

            assertThat(context.getBean(Customizers.class).ran).containsExactly("first", "second");
            server.verify(getRequestedFor(urlEqualTo(VERSION))
                    .withHeader("User-Agent", equalTo("replaced"))
                    .withHeader("X-Added-By", equalTo("an interceptor")));
            assertThat(client.getHttpClient().connectTimeoutMillis()).isEqualTo(1234);
        });
    }

    @Test
    void anApiClientOfTheApplicationsIsLeftAlone() {
        runner.withUserConfiguration(Customizers.class)
                .withBean(ApiClient.class, () -> new ApiClient().setBasePath(server.baseUrl()))
                .run(context -> assertThat(context.getBean(Customizers.class).ran).isEmpty());
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        final List<String> ran = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        ApiClientCustomizer second() {
            return client -> {
                ran.add("second");
                client.setHttpClient(client.getHttpClient().newBuilder()
                        .addInterceptor(chain -> chain.proceed(
                                chain.request().newBuilder().header("X-Added-By", "an interceptor").build()))
                        .connectTimeout(Duration.ofMillis(1234)).build());
            };
        }

        @Bean
        @Order(1)
        ApiClientCustomizer first() {
            return client -> {
                ran.add("first");
                client.setUserAgent("replaced");
            };
        }
    }
}
