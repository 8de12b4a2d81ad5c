package dev.watchkeeper.autoconfigure;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.watchkeeper.internal.leader.LeaderElector;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.VersionApi;
import io.kubernetes.client.util.credentials.AccessTokenAuthentication;
import io.kubernetes.client.util.credentials.Authentication;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.mock.env.MockEnvironment;

/**
 * The client of Lease traffic: the same server, credentials and customizers as Watchkeeper's client, but a connection
 * pool and dispatcher of its own, so reconcile and watch traffic cannot hold renewals up.
 */
class LeaseApiClientTests {

    private static final String VERSION = "/version/";

    private final WireMockServer server = new WireMockServer(options().dynamicPort());

    @BeforeEach
    void start() {
        server.start();
        server.stubFor(get(VERSION).willReturn(aResponse().withHeader("Content-Type", "application/json")
                .withBody("""
                        {"major": "1", "minor": "37", "gitVersion": "v1.37.2", "gitCommit": "0", "gitTreeState": "clean",
                         "buildDate": "2026-01-01T00:00:00Z", "goVersion": "go1.26", "compiler": "gc",
                         "platform": "linux/amd64"}""")));
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void fromConnectionDetailsItIsBuiltAndCustomizedAsWatchkeepersClientWithAPoolOfItsOwn() {
        new ApplicationContextRunner()
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
                })
                .withBean(ApiClientCustomizer.class, () -> client -> client.addDefaultHeader("X-Tuned", "yes"))
                .run(context -> {
                    ApiClient shared = context.getBean(ApiClient.class);
                    ApiClient leases = KubernetesApiClients.forLeases(shared,
                            context.getBean(KubernetesConnectionDetails.class),
                            context.getBeanProvider(ApiClientCustomizer.class), context.getEnvironment());

                    new VersionApi(leases).getCode().execute();

                    server.verify(getRequestedFor(urlEqualTo(VERSION))
                            .withHeader("Authorization", equalTo("Bearer the-token"))
                            .withHeader("X-Tuned", equalTo("yes")));
                    assertOwnPoolAndDispatcher(leases, shared);
                });
    }

    @Test
    void withLeaderElectionEveryCustomizerRunsOnceOnWatchkeepersClientAndOnceOnTheElectorsOwn() {
        List<ApiClient> customized = new CopyOnWriteArrayList<>();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WatchkeeperAutoConfiguration.class))
                .withPropertyValues("watchkeeper.leader-election.enabled=true")
                .withBean(KubernetesConnectionDetails.class, () -> () -> server.baseUrl())
                .withBean(ApiClientCustomizer.class, () -> customized::add)
                .run(context -> {
                    assertThat(context).hasSingleBean(LeaderElector.class);
                    ApiClient shared = context.getBean(ApiClient.class);
                    assertThat(customized).hasSize(2).contains(shared);
                    ApiClient leases = customized.stream().filter(client -> client != shared).findFirst()
                            .orElseThrow();
                    assertOwnPoolAndDispatcher(leases, shared);
                });
    }

    @Test
    void fromTheApplicationsOwnClientItSendsTheCredentialsThatClientHoldsAtEachRequest() throws Exception {
        ApiClient shared = new ApiClient().setBasePath(server.baseUrl());
        shared.setApiKeyPrefix("Bearer");
        shared.setApiKey("first");
        ApiClient leases = KubernetesApiClients.forLeases(shared, null, null, new MockEnvironment());

        shared.setApiKey("rotated");
        new VersionApi(leases).getCode().execute();

        server.verify(getRequestedFor(urlEqualTo(VERSION)).withHeader("Authorization", equalTo("Bearer rotated")));
        assertOwnPoolAndDispatcher(leases, shared);
    }

    private static void assertOwnPoolAndDispatcher(ApiClient leases, ApiClient shared) {
        assertThat(leases).isNotSameAs(shared);
        assertThat(leases.getHttpClient().connectionPool()).isNotSameAs(shared.getHttpClient().connectionPool());
        assertThat(leases.getHttpClient().dispatcher()).isNotSameAs(shared.getHttpClient().dispatcher());
    }
}
