package dev.watchkeeper.examples.cronjob;

import com.google.gson.JsonObject;
import com.google.gson.annotations.SerializedName;
import dev.watchkeeper.annotation.KubernetesResource;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1Condition;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code CronJob} ({@code batch.tutorial.kubebuilder.io/v1}, the tutorial's group): a Job template run on a cron
 * schedule. The original's CRD spells out the Job template's schema; here {@code jobTemplate} is kept whole, read as a
 * {@code batch/v1} JobTemplateSpec when a run makes its Job (the API server then checks the Job). The CRD requires
 * {@code schedule} and {@code jobTemplate}, refuses negative numbers and a policy other than the three, as the
 * original's does.
 *
 * <pre>
 * apiVersion: batch.tutorial.kubebuilder.io/v1
 * kind: CronJob
 * metadata: {name: nightly}
 * spec: {schedule: "1 * * * *", jobTemplate: {spec: {template: {spec: {...}}}}}
 * </pre>
 */
@KubernetesResource(group = CronJob.GROUP, version = "v1", kind = "CronJob", plural = "cronjobs")
public class CronJob implements KubernetesObject {

    public static final String GROUP = "batch.tutorial.kubebuilder.io";

    private String apiVersion = GROUP + "/v1";
    private String kind = "CronJob";
    private V1ObjectMeta metadata;
    private Spec spec;
    private Status status;

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    @Override
    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    @Override
    public V1ObjectMeta getMetadata() {
        return metadata;
    }

    public void setMetadata(V1ObjectMeta metadata) {
        this.metadata = metadata;
    }

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    public Status getStatus() {
        return status;
    }

    public void setStatus(Status status) {
        this.status = status;
    }

    /** What to run, and when. */
    public static class Spec {

        @NotNull
        private String schedule;
        @Min(0)
        private Long startingDeadlineSeconds;
        private ConcurrencyPolicy concurrencyPolicy;
        private Boolean suspend;
        @NotNull
        private JsonObject jobTemplate;
        @Min(0)
        private Integer successfulJobsHistoryLimit;
        @Min(0)
        private Integer failedJobsHistoryLimit;

        /** The schedule in cron format: five fields, a descriptor such as {@code @hourly}, or {@code @every 1h}. */
        public String getSchedule() {
            return schedule;
        }

        public void setSchedule(String schedule) {
            this.schedule = schedule;
        }

        /** How late, in seconds, a missed run may still start; none when unset. */
        public Long getStartingDeadlineSeconds() {
            return startingDeadlineSeconds;
        }

        public void setStartingDeadlineSeconds(Long startingDeadlineSeconds) {
            this.startingDeadlineSeconds = startingDeadlineSeconds;
        }

        /**
         * What a run does while a Job is active; {@link ConcurrencyPolicy#ALLOW} when unset. The original's CRD
         * defaults the field; Watchkeeper's CRD generator writes no {@code default}s, so the default is applied here.
         */
        public ConcurrencyPolicy getConcurrencyPolicy() {
            return concurrencyPolicy == null ? ConcurrencyPolicy.ALLOW : concurrencyPolicy;
        }

        public void setConcurrencyPolicy(ConcurrencyPolicy concurrencyPolicy) {
            this.concurrencyPolicy = concurrencyPolicy;
        }

        /** Whether later runs are suspended (running Jobs are not stopped). */
        public Boolean getSuspend() {
            return suspend;
        }

        public void setSuspend(Boolean suspend) {
            this.suspend = suspend;
        }

        /** The Job to make at each run ({@code batch/v1} JobTemplateSpec). */
        public JsonObject getJobTemplate() {
            return jobTemplate;
        }

        public void setJobTemplate(JsonObject jobTemplate) {
            this.jobTemplate = jobTemplate;
        }

        /** How many completed Jobs to keep; all when unset. */
        public Integer getSuccessfulJobsHistoryLimit() {
            return successfulJobsHistoryLimit;
        }

        public void setSuccessfulJobsHistoryLimit(Integer successfulJobsHistoryLimit) {
            this.successfulJobsHistoryLimit = successfulJobsHistoryLimit;
        }

        /** How many failed Jobs to keep; all when unset. */
        public Integer getFailedJobsHistoryLimit() {
            return failedJobsHistoryLimit;
        }

        public void setFailedJobsHistoryLimit(Integer failedJobsHistoryLimit) {
            this.failedJobsHistoryLimit = failedJobsHistoryLimit;
        }
    }

    /** What a run does while a Job of an earlier run is active. */
    public enum ConcurrencyPolicy {
        /** Runs at once. */
        @SerializedName("Allow")
        ALLOW,
        /** Skips the run. */
        @SerializedName("Forbid")
        FORBID,
        /** Deletes the active Jobs, then runs. */
        @SerializedName("Replace")
        REPLACE
    }

    /** The Jobs running, the last run, and the conditions {@code Available}, {@code Progressing}, {@code Degraded}. */
    public static class Status {

        private List<V1ObjectReference> active = new ArrayList<>();
        private OffsetDateTime lastScheduleTime;
        private List<V1Condition> conditions = new ArrayList<>();

        /** The Jobs running now. */
        public List<V1ObjectReference> getActive() {
            return active;
        }

        public void setActive(List<V1ObjectReference> active) {
            this.active = active;
        }

        /** When a Job was last scheduled. */
        public OffsetDateTime getLastScheduleTime() {
            return lastScheduleTime;
        }

        public void setLastScheduleTime(OffsetDateTime lastScheduleTime) {
            this.lastScheduleTime = lastScheduleTime;
        }

        public List<V1Condition> getConditions() {
            return conditions;
        }

        public void setConditions(List<V1Condition> conditions) {
            this.conditions = conditions;
        }
    }
}
