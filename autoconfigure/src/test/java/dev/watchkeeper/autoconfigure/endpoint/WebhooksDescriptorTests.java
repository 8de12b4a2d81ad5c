package dev.watchkeeper.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.autoconfigure.endpoint.WebhooksDescriptor.ConversionDescriptor;
import dev.watchkeeper.internal.webhook.ResourceVersions;
import dev.watchkeeper.internal.webhook.SecretCertificates;
import dev.watchkeeper.internal.webhook.WebhookService;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** The endpoint's {@code webhooks} entry lists the conversions the webhook server answers, not only its webhooks. */
class WebhooksDescriptorTests {

    @Test
    void aServerThatOnlyConvertsListsEachResourceItConverts() throws Exception {
        ExecutorService executor = Executors.newCachedThreadPool();
        try (InMemoryApiServer api = new InMemoryApiServer().start()) {
            ApiClient client = api.apiClient();
            try (WebhookService service = new WebhookService(client, List.of(),
                    List.of(ResourceVersions.of(Dial.class).orElseThrow()),
                    new SecretCertificates(client, "default", "conversions", List.of(), List.of("127.0.0.1"),
                            Clock.systemUTC()),
                    null, null, new InetSocketAddress("127.0.0.1", 0), executor, Clock.systemUTC())) {
                service.start();

                WebhooksDescriptor described = WebhooksDescriptor.of(service);

                assertThat(described.webhooks()).isEmpty();
                assertThat(described.conversions()).containsExactly(new ConversionDescriptor(
                        "dials.test.watchkeeper.dev", "v2", List.of("v2", "v1"), "/convert"));
                assertThat(described.port()).isEqualTo(service.port()).isPositive();
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v2", plural = "dials")
    @StorageVersion(otherVersions = DialV1.class)
    public static class Dial extends Base {
        public int degrees;
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "dials", kind = "Dial")
    public static class DialV1 extends Base implements Convertible<Dial> {
        public int degrees;

        @Override
        public Dial toHub() {
            Dial hub = new Dial();
            hub.degrees = degrees;
            return hub;
        }

        @Override
        public void fromHub(Dial hub) {
            degrees = hub.degrees;
        }
    }

    public static class Base implements KubernetesObject {
        public String apiVersion;
        public String kind;
        public V1ObjectMeta metadata;

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }
    }
}
