package dev.watchkeeper.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.internal.annotation.InvalidAnnotatedMethodException;
import dev.watchkeeper.internal.annotation.WebhookAnnotationBeanPostProcessor;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.MutatingWebhook;
import dev.watchkeeper.webhook.ValidatingWebhook;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.mock.env.MockEnvironment;

/** What the webhook auto-configuration does before any request: when it serves, and what it refuses at start-up. */
@ExtendWith(OutputCaptureExtension.class)
class WebhookAutoConfigurationTests {

    final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WatchkeeperWebhookAutoConfiguration.class))
            .withBean(ApiClient.class, ApiClient::new);

    @Test
    void withoutWebhookMethodsNothingIsServed() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(WatchkeeperWebhooks.class).service()).isEmpty();
        });
    }

    @Test
    void turnedOffThereIsNoWebhookBean() {
        runner.withPropertyValues("watchkeeper.webhooks.enabled=false").withBean(Valid.class)
                .run(context -> assertThat(context).doesNotHaveBean(WatchkeeperWebhooks.class)
                        .doesNotHaveBean(WebhookAnnotationBeanPostProcessor.class));
    }

    @Test
    void aWebhookWithNoAddressForTheApiServerFailsStartUpNamingTheProperties() {
        runner.withBean(Valid.class).run(context -> assertThat(context).getFailure()
                .rootCause().isInstanceOf(WatchkeeperPropertyException.class)
                .hasMessageContaining("watchkeeper.webhooks.url")
                .hasMessageContaining("watchkeeper.webhooks.service.name"));
    }

    @Test
    void aMultiVersionResourceWithNoAddressForTheApiServerIsNotConverted_andAWarningSaysWhatToSet(
            CapturedOutput output) {
        runner.withBean(CrdsAutoConfigurationTests.DialReconciler.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(WatchkeeperWebhooks.class).service()).isEmpty();
            assertThat(output).contains("The CRDs [dials.test.watchkeeper.dev] have several versions, but no"
                    + " conversion webhook is served: set watchkeeper.webhooks.service.name or"
                    + " watchkeeper.webhooks.url (or certificate-dir).");
        });
    }

    @Test
    void aMultiVersionResourceToRegisterWithNoAddressFailsStartUpNamingTheProperties() {
        runner.withBean(CrdsAutoConfigurationTests.DialReconciler.class)
                .withPropertyValues("watchkeeper.webhooks.register=true")
                .run(context -> assertThat(context).getFailure().rootCause()
                        .isInstanceOf(WatchkeeperPropertyException.class)
                        .hasMessageContaining("watchkeeper.webhooks.url"));
    }

    @Test
    void registrationIsOnWithAUrlFromOutsideTheClusterUnlessTurnedOff_andOffInTheClusterUnlessTurnedOn() {
        runner.run(context -> assertThat(context.getBean(WebhookProperties.class).registers()).isFalse());
        runner.withPropertyValues("watchkeeper.webhooks.service.name=hooks")
                .run(context -> assertThat(context.getBean(WebhookProperties.class).registers()).isFalse());
        runner.withPropertyValues("watchkeeper.webhooks.url=https://127.0.0.1:9443")
                .run(context -> assertThat(context.getBean(WebhookProperties.class).registers()).isTrue());
        runner.withPropertyValues("watchkeeper.webhooks.url=https://127.0.0.1:9443",
                "watchkeeper.webhooks.register=false")
                .run(context -> assertThat(context.getBean(WebhookProperties.class).registers()).isFalse());
        runner.withPropertyValues("watchkeeper.webhooks.service.name=hooks", "watchkeeper.webhooks.register=true")
                .run(context -> assertThat(context.getBean(WebhookProperties.class).registers()).isTrue());
    }

    @Test
    void theDefaultNameIsTheBeanAndMethod_andAWrongSignatureFailsStartUpNamingTheMethod() {
        WebhookAnnotationBeanPostProcessor found = new WebhookAnnotationBeanPostProcessor();
        found.setEnvironment(new MockEnvironment());
        found.postProcessAfterInitialization(new Valid(), "configChecks");
        assertThat(found.webhooks().get(0).definition().path())
                .isEqualTo("/validate/config-checks-check.watchkeeper.dev");
        runner.withBean(Invalid.class).run(context -> assertThat(context).getFailure().rootCause()
                .isInstanceOf(InvalidAnnotatedMethodException.class)
                .hasMessageContaining("Invalid.defaults(V1ConfigMap)")
                .hasMessageContaining("it must return the changed V1ConfigMap or void, not String"));
    }

    static class Valid {

        @ValidatingWebhook(type = V1ConfigMap.class)
        AdmissionVerdict check(V1ConfigMap configMap) {
            return AdmissionVerdict.allow();
        }
    }

    static class Invalid {

        @MutatingWebhook(type = V1ConfigMap.class)
        String defaults(V1ConfigMap configMap) {
            return "";
        }
    }
}
