package dev.watchkeeper.readme;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;

/** The conversion example of docs/crds.md: two versions of a resource, converted through the stored one. */
class Conversion {

    static final String TIME_ZONE = "example.com/time-zone";

    // tag::conversion[]
    @KubernetesResource(group = "example.com", version = "v2", plural = "backups")
    @StorageVersion(otherVersions = BackupV1.class)
    static class Backup extends Resource {              // stored, and what the reconciler reads
        Schedule schedule;
    }

    record Schedule(String cron, String timeZone) {
    }

    @KubernetesResource(group = "example.com", version = "v1", plural = "backups", kind = "Backup")
    static class BackupV1 extends Resource implements Convertible<Backup> {
        String cron;                                    // v1 had no time zone: UTC

        @Override
        public Backup toHub() {
            Map<String, String> annotations = metadata.getAnnotations();
            String zone = annotations == null ? null : annotations.remove(TIME_ZONE);
            Backup hub = new Backup();
            hub.metadata = metadata;
            hub.schedule = new Schedule(cron, zone != null ? zone : "UTC");
            return hub;
        }

        @Override
        public void fromHub(Backup hub) {
            metadata = hub.metadata;
            cron = hub.schedule.cron();
            if (!"UTC".equals(hub.schedule.timeZone())) { // what v1 cannot hold waits in an annotation
                metadata.putAnnotationsItem(TIME_ZONE, hub.schedule.timeZone());
            }
        }
    }
    // end::conversion[]

    /** {@code apiVersion}, {@code kind} and {@code metadata}, as every custom resource class has them. */
    abstract static class Resource implements KubernetesObject {

        String apiVersion;
        String kind;
        V1ObjectMeta metadata;

        @Override
        public String getApiVersion() {
            return apiVersion;
        }

        @Override
        public String getKind() {
            return kind;
        }

        @Override
        public V1ObjectMeta getMetadata() {
            return metadata;
        }
    }
}
