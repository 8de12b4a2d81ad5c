package dev.watchkeeper.readme;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.crd.CustomResourceDefinitions;
import dev.watchkeeper.readme.Conversion.Backup;
import dev.watchkeeper.readme.Conversion.BackupV1;
import dev.watchkeeper.readme.Conversion.Schedule;
import io.kubernetes.client.openapi.models.ApiextensionsV1WebhookClientConfig;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The two versions of docs/crds.md make one resource, and what v1 cannot hold survives a round trip through it. */
class ConversionTest {

    @Test
    void theVersionsMakeOneCrdStoringTheHub() {
        assertThat(CustomResourceDefinitions.versions(BackupV1.class)).containsExactly(
                Map.entry("v2", Backup.class), Map.entry("v1", BackupV1.class));
        Map<String, Object> spec = spec(CustomResourceDefinitions.definition(Backup.class,
                new ApiextensionsV1WebhookClientConfig().url("https://backups.example.com/convert")));
        assertThat((List<?>) spec.get("versions")).hasSize(2);
        assertThat(spec).containsKey("conversion");
    }

    @Test
    void aTimeZoneV1CannotHoldWaitsInAnAnnotationAndComesBack() {
        Backup hub = new Backup();
        hub.metadata = new V1ObjectMeta().name("nightly");
        hub.schedule = new Schedule("0 3 * * *", "Europe/Berlin");

        BackupV1 v1 = new BackupV1();
        v1.fromHub(hub);
        Backup back = v1.toHub();

        assertThat(v1.cron).isEqualTo("0 3 * * *");
        assertThat(back.schedule).isEqualTo(new Schedule("0 3 * * *", "Europe/Berlin"));
        assertThat(back.metadata.getAnnotations()).doesNotContainKey(Conversion.TIME_ZONE);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spec(Map<String, Object> definition) {
        return (Map<String, Object>) definition.get("spec");
    }
}
