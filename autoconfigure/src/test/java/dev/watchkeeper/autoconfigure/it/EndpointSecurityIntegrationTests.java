package dev.watchkeeper.autoconfigure.it;

import static dev.watchkeeper.test.stub.Replies.cm;
import static dev.watchkeeper.test.stub.Replies.events;
import static dev.watchkeeper.test.stub.Replies.page;
import static dev.watchkeeper.test.stub.Replies.serviceUnavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.springframework.security.config.Customizer.withDefaults;

import dev.watchkeeper.test.boot.AutoConfigureKubeApiStub;
import dev.watchkeeper.test.boot.KubeApiStubCustomizer;
import dev.watchkeeper.test.stub.KubeApiStub;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.test.annotation.DirtiesContext;

/**
 * With Spring Security, an application that secures its actuator endpoints secures "retry now" too: anonymous
 * calls get 401, a user who may read the state but not operate gets 403 on the POST, and only an operator's POST
 * ends the watcher's backoff. Runs in its own Surefire execution ({@code security}), the only one with Spring
 * Security on the classpath (Boot would secure every other test's application too), which sets the property it
 * is enabled by.
 */
@SpringBootTest(classes = {EndpointSecurityIntegrationTests.App.class, EndpointSecurityIntegrationTests.Script.class},
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
                "management.endpoints.web.exposure.include=health,watchkeeper",
                "watchkeeper.watchers.cms.resource=v1/configmaps",
                "watchkeeper.backoff.initial-interval=30s",
                "watchkeeper.backoff.max-interval=60s"})
@AutoConfigureKubeApiStub
@DirtiesContext
@EnabledIfSystemProperty(named = "watchkeeper.test.security", matches = "true",
        disabledReason = "runs in the security execution, with Spring Security on the classpath")
class EndpointSecurityIntegrationTests {

    private static final String PATH = "/api/v1/configmaps";
    private static final String WATCHER = "/actuator/watchkeeper/cms";

    @LocalServerPort
    int port;

    @Autowired
    KubeApiStub stub;

    @TestConfiguration
    static class Script {

        @Bean
        KubeApiStubCustomizer script() {
            return stub -> stub.on(PATH).list(serviceUnavailable()).list(page(cm("a", "5")).resourceVersion("5"))
                    .watch(events().thenStayOpen());
        }
    }

    @Test
    void onlyAnAuthorizedUserCanRetryNow() {
        Http anonymous = new Http(port);
        Http viewer = anonymous.as("viewer", "viewer-password");
        Http operator = anonymous.as("operator", "operator-password");
        await().atMost(Duration.ofSeconds(10)).until(() -> viewer.get(WATCHER).json().getAsJsonObject()
                .get("phase").getAsString().equals("BACKING_OFF"));

        assertThat(anonymous.get(WATCHER).status()).isEqualTo(401);
        assertThat(anonymous.post(WATCHER).status()).isEqualTo(401);
        assertThat(operator.as("operator", "wrong").post(WATCHER).status()).isEqualTo(401);
        assertThat(viewer.post(WATCHER).status()).isEqualTo(403);
        assertThat(stub.listRequests(PATH)).as("no retry happened").hasSize(1);
        assertThat(viewer.get(WATCHER).json().getAsJsonObject().get("phase").getAsString()).isEqualTo("BACKING_OFF");

        Http.Response retried = operator.post(WATCHER);

        assertThat(retried.status()).as(retried.body()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() -> viewer.get(WATCHER).json().getAsJsonObject()
                .get("phase").getAsString().equals("WATCHING"));
        assertThat(stub.listRequests(PATH)).hasSize(2);
    }

    @SpringBootApplication
    static class App {

        /** Actuator for signed-in users; its write operations for operators only. */
        @Bean
        SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
            return http.securityMatcher(EndpointRequest.toAnyEndpoint())
                    .authorizeHttpRequests(requests -> requests
                            .requestMatchers(HttpMethod.POST).hasRole("OPERATOR")
                            .anyRequest().hasAnyRole("VIEWER", "OPERATOR"))
                    .httpBasic(withDefaults())
                    // Callers are scripts with Basic credentials, not browsers with a session: no CSRF token.
                    .csrf(csrf -> csrf.ignoringRequestMatchers(EndpointRequest.toAnyEndpoint()))
                    .build();
        }

        @Bean
        UserDetailsService users() {
            return new InMemoryUserDetailsManager(
                    User.withUsername("viewer").password("{noop}viewer-password").roles("VIEWER").build(),
                    User.withUsername("operator").password("{noop}operator-password").roles("OPERATOR").build());
        }
    }
}
