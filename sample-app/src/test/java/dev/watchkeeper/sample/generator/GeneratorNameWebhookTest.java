package dev.watchkeeper.sample.generator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.Operation;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GeneratorNameWebhookTest {

    @Test
    void aPrefixThatWouldTakeOverAConfigMapOfSomeoneElseIsRefusedNamingIt() {
        GeneratorNameWebhook webhook = webhook(Map.of("demo/hello-1", configMap("hello-1", null)));

        AdmissionVerdict verdict = webhook.noTakeOver(generator(null, "hello", 2), create("greeter"));

        assertThat(verdict.allowed()).isFalse();
        assertThat(verdict.message())
                .isEqualTo("ConfigMap demo/hello-1 exists and is not generator greeter's: choose another namePrefix");
    }

    @Test
    void itsOwnConfigMapsAndFreeNamesAreAdmitted() {
        GeneratorNameWebhook webhook = webhook(Map.of("demo/hello-0", configMap("hello-0", "uid-1")));

        assertThat(webhook.noTakeOver(generator("uid-1", "hello", 2), create("greeter")).allowed()).isTrue();
        assertThat(webhook.noTakeOver(generator(null, "other", 2), create("greeter")).allowed()).isTrue();
    }

    private static AdmissionContext create(String name) {
        return new AdmissionContext(Operation.CREATE, false, "alice", List.of(), "demo", name, "uid");
    }

    private static ConfigMapGenerator generator(String uid, String prefix, int replicas) {
        ConfigMapGenerator generator = new ConfigMapGenerator();
        generator.setMetadata(new V1ObjectMeta().name("greeter").namespace("demo").uid(uid).generation(1L));
        generator.setSpec(new ConfigMapGenerator.Spec().namePrefix(prefix).replicas(replicas));
        return generator;
    }

    private static V1ConfigMap configMap(String name, String controllerUid) {
        V1ObjectMeta meta = new V1ObjectMeta().name(name).namespace("demo");
        if (controllerUid != null) {
            meta.addOwnerReferencesItem(new V1OwnerReference().uid(controllerUid).controller(true));
        }
        return new V1ConfigMap().metadata(meta);
    }

    /** The webhook over a store holding {@code byKey} ({@code namespace/name}). */
    private static GeneratorNameWebhook webhook(Map<String, V1ConfigMap> byKey) {
        // a proxy, not an implementation: the webhook reads by key only, and Store may grow
        @SuppressWarnings("unchecked")
        Store<V1ConfigMap> store = (Store<V1ConfigMap>) Proxy.newProxyInstance(Store.class.getClassLoader(),
                new Class<?>[] {Store.class}, (proxy, method, arguments) -> {
                    if (!method.getName().equals("get")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    ObjectKey key = arguments.length == 1 ? (ObjectKey) arguments[0]
                            : new ObjectKey((String) arguments[0], (String) arguments[1]);
                    return Optional.ofNullable(byKey.get(key.namespace() + "/" + key.name()));
                });
        return new GeneratorNameWebhook(store);
    }
}
