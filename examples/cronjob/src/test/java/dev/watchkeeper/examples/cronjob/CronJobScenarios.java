package dev.watchkeeper.examples.cronjob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.BatchV1Api;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobSpec;
import io.kubernetes.client.openapi.models.V1JobStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The tutorial's envtest suite ({@code cronjob_controller_test.go}), turned into ours and run on each server by a
 * subclass, and the schedule it never lets fire, on a clock the test moves. Neither server runs a Job controller (nor
 * does envtest): the test writes each Job's status as the Job controller would.
 *
 * <p>Nothing sleeps. The original's "consistently for 10 s, no Job is active" becomes: once the controller has written
 * the status it rebuilt from no Jobs, and once it has reconciled a later generation of the CronJob (its
 * {@code Available} condition carries that generation), no Job is active and none was made; with the clock held
 * before the CronJob's creation no run can fall due, so waiting longer could not see more. The clock only moves
 * after the controller has observed the spec the next step depends on, and a reconcile at the new time is started by
 * a change to the CronJob or its Job: the requeue at the next run waits in real time, on the library's clock.
 */
@SpringBootTest(classes = {CronJobOperator.class, CronJobScenarios.TestClock.class},
        properties = "watchkeeper.crds.apply=true")
@DirtiesContext
abstract class CronJobScenarios {

    /** The original's Eventually waits 2 minutes; nothing here waits for more than a reconcile or two. */
    static final Duration WAIT = Duration.ofSeconds(60);

    @TestConfiguration
    static class TestClock {
        @Bean
        @Primary
        MutableClock testClock() {
            return new MutableClock(Instant.now());
        }
    }

    @Autowired
    ApiClient client;

    @Autowired
    MutableClock clock;

    abstract String namespace();

    /**
     * Whether the server checks what it stores: a Job's spec, and a CronJob against its CRD's schema (the in-memory
     * one stores both as given).
     */
    abstract boolean validates();

    /** Each test starts at the time it starts: no earlier test's moves make a run fall due. */
    @BeforeEach
    void holdTheClockAtNow() {
        clock.set(Instant.now());
    }

    @Test
    void theTutorialsTestActiveJobsAndHistoryLimits() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi cronJobs = cronJobs();
        BatchV1Api batch = new BatchV1Api(client);
        cronJobs.create(cronJob(ns, "test-cronjob", "1 * * * *")).throwsApiException();

        // The controller initialises the conditions; with no Job, the rebuilt status has none active.
        await().atMost(WAIT).until(() -> condition(cronJobs, "test-cronjob", "Available") != null);
        assertThat(status(cronJobs, "test-cronjob").getAsJsonArray("conditions")).isNotEmpty();
        assertThat(active(cronJobs, "test-cronjob")).isEmpty();
        update(cronJobs, "test-cronjob", c -> spec(c).addProperty("suspend", false));
        awaitReconciled(cronJobs, "test-cronjob");
        assertThat(active(cronJobs, "test-cronjob")).isEmpty();
        assertThat(jobNames(batch, ns, "test-cronjob")).isEmpty();

        // A Job it controls, running (2 active pods): it is the one active Job, and the CronJob is Available. The
        // active list and the conditions are two writes here (one in the original), so the wait covers both.
        batch.createNamespacedJob(ns, job(ns, "test-job", owner(cronJobs, "test-cronjob"))).execute();
        writeStatus(batch, ns, "test-job", new V1JobStatus().active(2));
        await().atMost(WAIT).until(() -> active(cronJobs, "test-cronjob").equals(List.of("test-job"))
                && "JobsActive".equals(reason(condition(cronJobs, "test-cronjob", "Available"))));
        JsonArray conditions = status(cronJobs, "test-cronjob").getAsJsonArray("conditions");
        List<JsonObject> available = new ArrayList<>();
        conditions.forEach(c -> {
            if ("Available".equals(c.getAsJsonObject().get("type").getAsString())) {
                available.add(c.getAsJsonObject());
            }
        });
        assertThat(available).singleElement().satisfies(c -> {
            assertThat(c.get("status").getAsString()).isEqualTo("True");
            assertThat(c.get("reason").getAsString()).isEqualTo("JobsActive");
        });

        // History limits of 1: of two failed and two successful Jobs, the older of each go.
        update(cronJobs, "test-cronjob", c -> {
            spec(c).addProperty("failedJobsHistoryLimit", 1);
            spec(c).addProperty("successfulJobsHistoryLimit", 1);
        });
        OffsetDateTime base = OffsetDateTime.now().truncatedTo(ChronoUnit.SECONDS);
        V1OwnerReference owner = owner(cronJobs, "test-cronjob");
        finished(batch, ns, "test-failed-job-old", owner, base.minusMinutes(1), false);
        finished(batch, ns, "test-failed-job-new", owner, base.plusSeconds(1), false);
        finished(batch, ns, "test-successful-job-old", owner, base.minusMinutes(1), true);
        finished(batch, ns, "test-successful-job-new", owner, base.plusSeconds(1), true);
        await().atMost(WAIT).untilAsserted(() -> assertThat(jobNames(batch, ns, "test-"))
                .containsExactly("test-failed-job-new", "test-job", "test-successful-job-new"));
    }

    @Test
    void missedRunsMakeJobsAsTheConcurrencyPolicyAllowsUntilSuspendedOrUnparseable() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi cronJobs = cronJobs();
        BatchV1Api batch = new BatchV1Api(client);
        String name = "every-minute";
        cronJobs.create(cronJob(ns, name, "* * * * *")).throwsApiException();
        await().atMost(WAIT).until(() -> condition(cronJobs, name, "Available") != null);
        Instant created = cronJobs.get(ns, name).throwsApiException().getObject().getMetadata()
                .getCreationTimestamp().toInstant();

        // A run missed (the clock moved past it): its Job, named by its time, owned, annotated; the status follows.
        Instant first = created.plusSeconds(90).truncatedTo(ChronoUnit.MINUTES);
        clock.set(created.plusSeconds(90));
        touch(cronJobs, name);
        String firstJob = name + "-" + first.getEpochSecond();
        V1Job job = await().atMost(WAIT).ignoreExceptions()
                .until(() -> batch.readNamespacedJob(firstJob, ns).execute(), j -> j != null);
        assertThat(job.getMetadata().getAnnotations()).containsEntry("batch.tutorial.kubebuilder.io/scheduled-at",
                first.toString());
        assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getController()).isTrue();
            assertThat(ref.getBlockOwnerDeletion()).isTrue();
            assertThat(ref.getName()).isEqualTo(name);
        });
        assertThat(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("test-image");
        await().atMost(WAIT).until(() -> first.equals(lastScheduleTime(cronJobs, name))
                && active(cronJobs, name).equals(List.of(firstJob))
                && "True".equals(string(condition(cronJobs, name, "Progressing"), "status")));
        assertThat(string(condition(cronJobs, name, "Degraded"), "status")).isEqualTo("False");

        // Forbid: the next run is skipped while the first Job runs. A reconcile after the clock moved is known to have
        // run when the status names the Job's new resourceVersion.
        update(cronJobs, name, c -> spec(c).addProperty("concurrencyPolicy", "Forbid"));
        awaitReconciled(cronJobs, name);
        clock.advance(Duration.ofMinutes(1));
        String version = writeStatus(batch, ns, firstJob, new V1JobStatus().active(1));
        await().atMost(WAIT).until(() -> version.equals(activeVersion(cronJobs, name)));
        assertThat(jobNames(batch, ns, name)).containsExactly(firstJob);

        // Replace: the running Job is deleted, and the missed run gets its own.
        update(cronJobs, name, c -> spec(c).addProperty("concurrencyPolicy", "Replace"));
        String secondJob = name + "-" + first.plusSeconds(60).getEpochSecond();
        await().atMost(WAIT).untilAsserted(() -> assertThat(jobNames(batch, ns, name)).containsExactly(secondJob));
        await().atMost(WAIT).untilAsserted(() -> assertThat(active(cronJobs, name)).containsExactly(secondJob));

        // Suspended: no Job for the next run, and it says so.
        update(cronJobs, name, c -> spec(c).addProperty("suspend", true));
        awaitReconciled(cronJobs, name);
        clock.advance(Duration.ofMinutes(1));
        String suspendedVersion = writeStatus(batch, ns, secondJob, new V1JobStatus().active(1));
        await().atMost(WAIT).until(() -> suspendedVersion.equals(activeVersion(cronJobs, name))
                && "Suspended".equals(reason(condition(cronJobs, name, "Available"))));
        assertThat(jobNames(batch, ns, name)).containsExactly(secondJob);

        // A schedule that is not one: Degraded, saying why.
        update(cronJobs, name, c -> {
            spec(c).addProperty("suspend", false);
            spec(c).addProperty("schedule", "every full moon");
        });
        await().atMost(WAIT).until(() -> "InvalidSchedule".equals(reason(condition(cronJobs, name, "Degraded"))));
        assertThat(condition(cronJobs, name, "Degraded").get("message").getAsString())
                .startsWith("Failed to parse schedule: expected exactly 5 fields");
        assertThat(jobNames(batch, ns, name)).containsExactly(secondJob);
    }

    @Test
    void aRunPastItsStartingDeadlineIsSkippedAndReported() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi cronJobs = cronJobs();
        BatchV1Api batch = new BatchV1Api(client);
        String name = "deadline";
        DynamicKubernetesObject late = cronJob(ns, name, "* * * * *");
        spec(late).addProperty("startingDeadlineSeconds", 30);
        cronJobs.create(late).throwsApiException();
        await().atMost(WAIT).until(() -> condition(cronJobs, name, "Available") != null);
        Instant minute = cronJobs.get(ns, name).throwsApiException().getObject().getMetadata()
                .getCreationTimestamp().toInstant().truncatedTo(ChronoUnit.MINUTES);

        // 45 s after the third run, 30 s to start it: too late, and said so; no Job.
        clock.set(minute.plusSeconds(3 * 60 + 45));
        touch(cronJobs, name);
        await().atMost(WAIT).until(() -> "MissedSchedule".equals(reason(condition(cronJobs, name, "Degraded"))));
        assertThat(condition(cronJobs, name, "Degraded").get("message").getAsString())
                .isEqualTo("Missed starting deadline for run at " + minute.plusSeconds(3 * 60));
        assertThat(jobNames(batch, ns, name)).isEmpty();

        // 10 s after the fourth: in time; it runs, and the CronJob is no longer degraded.
        Instant fourth = minute.plusSeconds(4 * 60);
        clock.set(fourth.plusSeconds(10));
        touch(cronJobs, name);
        await().atMost(WAIT).untilAsserted(() -> assertThat(jobNames(batch, ns, name))
                .containsExactly(name + "-" + fourth.getEpochSecond()));
        await().atMost(WAIT).until(() -> "AsScheduled".equals(reason(condition(cronJobs, name, "Degraded")))
                && fourth.equals(lastScheduleTime(cronJobs, name)));
        assertThat(string(condition(cronJobs, name, "Degraded"), "status")).isEqualTo("False");
    }

    @Test
    void aJobThatCannotBeMadeIsReported() throws Exception {
        String ns = namespace();
        DynamicKubernetesApi cronJobs = cronJobs();
        BatchV1Api batch = new BatchV1Api(client);
        String name = "bad-template";
        if (validates()) {
            // The CRD's schema, as the original's: a policy of the three, no negative limit.
            for (Consumer<JsonObject> invalid : List.<Consumer<JsonObject>>of(
                    spec -> spec.addProperty("concurrencyPolicy", "Sometimes"),
                    spec -> spec.addProperty("failedJobsHistoryLimit", -1))) {
                DynamicKubernetesObject refused = cronJob(ns, "refused", "* * * * *");
                invalid.accept(spec(refused));
                assertThat(cronJobs.create(refused).getHttpStatusCode()).isEqualTo(422);
            }
        }
        DynamicKubernetesObject bad = cronJob(ns, name, "* * * * *");
        spec(bad).getAsJsonObject("jobTemplate").getAsJsonObject("spec").addProperty("bogus", 1);
        cronJobs.create(bad).throwsApiException();
        await().atMost(WAIT).until(() -> condition(cronJobs, name, "Available") != null);
        Instant created = cronJobs.get(ns, name).throwsApiException().getObject().getMetadata()
                .getCreationTimestamp().toInstant();

        // A field no Job has: the template is no JobTemplateSpec, and the run makes nothing.
        clock.set(created.plusSeconds(90));
        touch(cronJobs, name);
        await().atMost(WAIT).until(() -> "JobCreationFailed".equals(reason(condition(cronJobs, name, "Degraded"))));
        assertThat(condition(cronJobs, name, "Degraded").get("message").getAsString())
                .startsWith("Failed to create job: ").contains("`bogus`");
        assertThat(jobNames(batch, ns, name)).isEmpty();

        // A Job that restarts always: a real server refuses it (Jobs restart never or on failure), and says why.
        update(cronJobs, name, c -> {
            JsonObject jobSpec = spec(c).getAsJsonObject("jobTemplate").getAsJsonObject("spec");
            jobSpec.remove("bogus");
            jobSpec.getAsJsonObject("template").getAsJsonObject("spec").addProperty("restartPolicy", "Always");
        });
        if (validates()) {
            await().atMost(WAIT).until(() -> string(condition(cronJobs, name, "Degraded"), "message")
                    .contains("restartPolicy"));
            assertThat(condition(cronJobs, name, "Degraded").get("message").getAsString())
                    .startsWith("Failed to create job: Job.batch \"" + name + "-");
            assertThat(jobNames(batch, ns, name)).isEmpty();
        } else {
            await().atMost(WAIT).until(() -> "AsScheduled".equals(reason(condition(cronJobs, name, "Degraded"))));
            assertThat(jobNames(batch, ns, name)).hasSize(1);
        }
        cronJobs.delete(ns, name).throwsApiException();
    }

    private DynamicKubernetesApi cronJobs() {
        return new DynamicKubernetesApi(CronJob.GROUP, "v1", "cronjobs", client);
    }

    private static DynamicKubernetesObject cronJob(String namespace, String name, String schedule) {
        JsonObject raw = new JsonObject();
        raw.addProperty("apiVersion", CronJob.GROUP + "/v1");
        raw.addProperty("kind", "CronJob");
        JsonObject metadata = new JsonObject();
        metadata.addProperty("namespace", namespace);
        metadata.addProperty("name", name);
        raw.add("metadata", metadata);
        JsonObject spec = new JsonObject();
        spec.addProperty("schedule", schedule);
        JsonObject jobTemplate = new JsonObject();
        jobTemplate.add("spec", JSON.getGson().toJsonTree(jobSpec()));
        spec.add("jobTemplate", jobTemplate);
        raw.add("spec", spec);
        return new DynamicKubernetesObject(raw);
    }

    private static V1JobSpec jobSpec() {
        return new V1JobSpec().template(new V1PodTemplateSpec().spec(new V1PodSpec().restartPolicy("OnFailure")
                .containers(List.of(new V1Container().name("test-container").image("test-image")))));
    }

    private static V1Job job(String namespace, String name, V1OwnerReference owner) {
        return new V1Job().metadata(new V1ObjectMeta().namespace(namespace).name(name).ownerReferences(List.of(owner)))
                .spec(jobSpec());
    }

    /** A controller reference to the CronJob, as the original's test writes it. */
    private V1OwnerReference owner(DynamicKubernetesApi cronJobs, String name) throws ApiException {
        DynamicKubernetesObject cronJob = cronJobs.get(namespace(), name).throwsApiException().getObject();
        return new V1OwnerReference().apiVersion(CronJob.GROUP + "/v1").kind("CronJob").name(name)
                .uid(cronJob.getMetadata().getUid()).controller(true).blockOwnerDeletion(true);
    }

    /** A Job that ran from {@code start}: failed ({@code FailureTarget}, {@code Failed}) or completed. */
    private static void finished(BatchV1Api batch, String ns, String name, V1OwnerReference owner,
            OffsetDateTime start, boolean succeeded) throws ApiException {
        batch.createNamespacedJob(ns, job(ns, name, owner)).execute();
        V1JobStatus status = new V1JobStatus().startTime(start);
        if (succeeded) {
            status.completionTime(start).conditions(List.of(jobCondition("SuccessCriteriaMet"),
                    jobCondition("Complete")));
        } else {
            status.conditions(List.of(jobCondition("FailureTarget"), jobCondition("Failed")));
        }
        writeStatus(batch, ns, name, status);
    }

    private static V1JobCondition jobCondition(String type) {
        return new V1JobCondition().type(type).status("True").lastTransitionTime(OffsetDateTime.now());
    }

    /** Writes a Job's status as the Job controller would; returns the Job's resourceVersion after it. */
    private static String writeStatus(BatchV1Api batch, String ns, String name, V1JobStatus status)
            throws ApiException {
        V1Job job = batch.readNamespacedJob(name, ns).execute();
        job.setStatus(status);
        return batch.replaceNamespacedJobStatus(name, ns, job).execute().getMetadata().getResourceVersion();
    }

    /** The Jobs whose names start with {@code prefix} (the two tests share a namespace), sorted. */
    private static List<String> jobNames(BatchV1Api batch, String ns, String prefix) throws ApiException {
        return batch.listNamespacedJob(ns).execute().getItems().stream().map(j -> j.getMetadata().getName())
                .filter(name -> name.startsWith(prefix)).sorted().toList();
    }

    /** A change the schedule does not read, so the controller reconciles at the clock's time now. */
    private void touch(DynamicKubernetesApi cronJobs, String name) {
        update(cronJobs, name, c -> {
            JsonObject metadata = c.getRaw().getAsJsonObject("metadata");
            JsonObject annotations = metadata.has("annotations") ? metadata.getAsJsonObject("annotations")
                    : new JsonObject();
            annotations.addProperty("touched", Instant.now().toString());
            metadata.add("annotations", annotations);
        });
    }

    private void update(DynamicKubernetesApi cronJobs, String name, Consumer<DynamicKubernetesObject> change) {
        await().atMost(WAIT).ignoreExceptions().untilAsserted(() -> {
            DynamicKubernetesObject cronJob = cronJobs.get(namespace(), name).throwsApiException().getObject();
            change.accept(cronJob);
            cronJobs.update(cronJob).throwsApiException();
        });
    }

    /** Waits until the controller has reconciled the CronJob's current generation. */
    private void awaitReconciled(DynamicKubernetesApi cronJobs, String name) {
        await().atMost(WAIT).until(() -> {
            DynamicKubernetesObject cronJob = cronJobs.get(namespace(), name).throwsApiException().getObject();
            JsonObject available = condition(cronJob, "Available");
            return available != null && available.has("observedGeneration")
                    && available.get("observedGeneration").getAsLong() == cronJob.getMetadata().getGeneration();
        });
    }

    private static JsonObject spec(DynamicKubernetesObject cronJob) {
        return cronJob.getRaw().getAsJsonObject("spec");
    }

    private JsonObject status(DynamicKubernetesApi cronJobs, String name) throws ApiException {
        return status(cronJobs.get(namespace(), name).throwsApiException().getObject());
    }

    private static JsonObject status(DynamicKubernetesObject cronJob) {
        JsonObject status = cronJob.getRaw().getAsJsonObject("status");
        return status == null ? new JsonObject() : status;
    }

    private List<String> active(DynamicKubernetesApi cronJobs, String name) throws ApiException {
        JsonArray active = status(cronJobs, name).getAsJsonArray("active");
        List<String> names = new ArrayList<>();
        if (active != null) {
            active.forEach(ref -> names.add(ref.getAsJsonObject().get("name").getAsString()));
        }
        return names;
    }

    /** The resourceVersion the status's one active reference names. */
    private String activeVersion(DynamicKubernetesApi cronJobs, String name) throws ApiException {
        JsonArray active = status(cronJobs, name).getAsJsonArray("active");
        return active == null || active.size() != 1 ? null
                : active.get(0).getAsJsonObject().get("resourceVersion").getAsString();
    }

    private Instant lastScheduleTime(DynamicKubernetesApi cronJobs, String name) throws ApiException {
        JsonElement last = status(cronJobs, name).get("lastScheduleTime");
        return last == null || last.isJsonNull() ? null : OffsetDateTime.parse(last.getAsString()).toInstant();
    }

    private JsonObject condition(DynamicKubernetesApi cronJobs, String name, String type) throws ApiException {
        return condition(cronJobs.get(namespace(), name).throwsApiException().getObject(), type);
    }

    private static JsonObject condition(DynamicKubernetesObject cronJob, String type) {
        JsonArray conditions = status(cronJob).getAsJsonArray("conditions");
        if (conditions != null) {
            for (JsonElement condition : conditions) {
                if (type.equals(condition.getAsJsonObject().get("type").getAsString())) {
                    return condition.getAsJsonObject();
                }
            }
        }
        return null;
    }

    private static String reason(JsonObject condition) {
        return string(condition, "reason");
    }

    private static String string(JsonObject object, String field) {
        return object == null || !object.has(field) ? "" : object.get(field).getAsString();
    }
}
