package dev.watchkeeper.examples.cronjob;

import com.google.gson.JsonParseException;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.examples.cronjob.CronJob.ConcurrencyPolicy;
import dev.watchkeeper.reconcile.Conditions;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobTemplateSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Status;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The tutorial's controller, step by step: the status is rebuilt from the CronJob's Jobs (those it controls, from the
 * owner index, as the original's {@code .metadata.controller} field index), the oldest finished Jobs beyond the
 * history limits are deleted, and unless suspended the latest missed run, if any, gets its Job as the concurrency
 * policy allows; the reconcile is queued again for the next run. Differences from the original, each a fix:
 * <ul>
 *   <li>a run's Job is applied (server-side apply, its name fixed by the run's time) instead of created, so a run
 *       whose Job the cache does not hold yet is not refused as {@code AlreadyExists} and marked degraded;</li>
 *   <li>the status names a Job and its run as soon as it is made, not at the reconcile its watch event starts;</li>
 *   <li>{@code Degraded} returns to {@code False} at the end of a reconcile that met no trouble and found no failed
 *       Job (the original never resets it); nothing resets it earlier, so a schedule still invalid does not flip it
 *       to {@code False} and back at every reconcile;</li>
 *   <li>a run the starting deadline made it skip is reported as {@code MissedSchedule} (see {@link ScheduledRuns});
 *       the original's check for it can never hold;</li>
 *   <li>a template that cannot be read as a JobTemplateSpec (an unknown field, a missing {@code template}) is
 *       reported as {@code JobCreationFailed}, as a refused create is, before {@code Replace} deletes the running
 *       Jobs; the original cannot meet one, its CRD having the template's schema.</li>
 * </ul>
 */
@Component
class CronJobReconciler {

    static final String AVAILABLE = "Available";
    static final String PROGRESSING = "Progressing";
    static final String DEGRADED = "Degraded";
    private static final Logger log = LoggerFactory.getLogger(CronJobReconciler.class);

    private final Clock clock;

    CronJobReconciler(Clock clock) {
        this.clock = clock;
    }

    // tag::reconcile[]
    @Reconciler(name = "cronjob", namespace = "${cronjob.namespace:}", owns = V1Job.class)
    ReconcileResult reconcile(CronJob cronJob, ReconcileContext context) throws ApiException, InterruptedException {
        if (cronJob.getStatus() == null || cronJob.getStatus().getConditions().isEmpty()) {
            cronJob = context.updateConditions(cronJob,
                    c -> c.setUnknown(PROGRESSING, "Reconciling", "Starting reconciliation"));
        }
        ChildJobs jobs = ChildJobs.of(context.owned(V1Job.class));
        cronJob = context.updateStatus(cronJob, c -> {
            status(c).setActive(jobs.activeReferences());
            status(c).setLastScheduleTime(utc(jobs.latestSchedule()));
        });
        boolean suspended = Boolean.TRUE.equals(cronJob.getSpec().getSuspend());
        cronJob = context.updateConditions(cronJob, c -> summarize(jobs, suspended, c));
        deleteBeyondLimits(cronJob, jobs, context);
        if (suspended) {
            return ReconcileResult.done();
        }

        Instant now = clock.instant();
        ScheduledRuns runs;
        try {
            runs = ScheduledRuns.of(CronSchedule.parse(cronJob.getSpec().getSchedule()), lastScheduled(cronJob),
                    cronJob.getMetadata().getCreationTimestamp().toInstant(),
                    cronJob.getSpec().getStartingDeadlineSeconds(), now);
        } catch (IllegalArgumentException e) {
            degraded(cronJob, context, "InvalidSchedule", "Failed to parse schedule: " + e.getMessage());
            return ReconcileResult.done(); // only a change of the schedule can fix it
        }
        ReconcileResult atNextRun = ReconcileResult.requeueAfter(Duration.between(now, runs.next()));
        if (runs.late() != null) {
            degraded(cronJob, context, "MissedSchedule", "Missed starting deadline for run at " + runs.late());
            return atNextRun;
        }
        ConcurrencyPolicy policy = cronJob.getSpec().getConcurrencyPolicy();
        if (runs.missed() == null || policy == ConcurrencyPolicy.FORBID && !jobs.active().isEmpty()) {
            return settled(cronJob, jobs, context, atNextRun);
        }
        V1Job job;
        try {
            job = job(cronJob, runs.missed());
        } catch (IllegalArgumentException | JsonParseException e) {
            degraded(cronJob, context, "JobCreationFailed", "Failed to create job: " + e.getMessage());
            return atNextRun; // only a change of the template can fix it
        }
        if (policy == ConcurrencyPolicy.REPLACE) {
            for (V1Job active : jobs.active()) {
                context.delete(active);
            }
        }
        try {
            job = context.applyOwned(job);
        } catch (ApiException e) {
            degraded(cronJob, context, "JobCreationFailed", "Failed to create job: " + why(e));
            throw e;
        }
        List<V1ObjectReference> active = new ArrayList<>(policy == ConcurrencyPolicy.REPLACE ? List.of()
                : jobs.activeReferences());
        active.add(ChildJobs.reference(job));
        cronJob = context.updateStatus(cronJob, c -> {
            status(c).setActive(active);
            status(c).setLastScheduleTime(utc(runs.missed()));
        });
        String created = job.getMetadata().getName();
        cronJob = context.updateConditions(cronJob,
                c -> c.set(PROGRESSING, true, "JobCreated", "Created job " + created));
        return settled(cronJob, jobs, context, atNextRun);
    }
    // end::reconcile[]

    /** The conditions the Jobs imply, the first case that holds; {@code Degraded} only when a Job has failed. */
    private static void summarize(ChildJobs jobs, boolean suspended, Conditions conditions) {
        if (suspended) {
            conditions.set(AVAILABLE, false, "Suspended", "CronJob is suspended");
        } else if (!jobs.failed().isEmpty()) {
            String message = jobs.failed().size() + " job(s) have failed";
            conditions.set(DEGRADED, true, "JobsFailed", message).set(AVAILABLE, false, "JobsFailed", message);
        } else if (!jobs.active().isEmpty()) {
            int n = jobs.active().size();
            conditions.set(PROGRESSING, true, "JobsActive", n + " job(s) are currently active")
                    .set(AVAILABLE, true, "JobsActive", "CronJob is progressing with " + n + " active job(s)");
        } else {
            conditions.set(AVAILABLE, true, "AllJobsCompleted", "All jobs have completed successfully")
                    .set(PROGRESSING, false, "NoJobsActive", "No jobs are currently active");
        }
    }

    private static void degraded(CronJob cronJob, ReconcileContext context, String reason, String message)
            throws ApiException, InterruptedException {
        context.updateConditions(cronJob, c -> c.set(DEGRADED, true, reason, message));
    }

    /** The end of a reconcile that met no trouble: unless a Job has failed, the CronJob is not degraded. */
    private static ReconcileResult settled(CronJob cronJob, ChildJobs jobs, ReconcileContext context,
            ReconcileResult result) throws ApiException, InterruptedException {
        if (jobs.failed().isEmpty()) {
            context.updateConditions(cronJob, c -> c.set(DEGRADED, false, "AsScheduled",
                    "The schedule is valid and no job has failed"));
        }
        return result;
    }

    /** What the server said: the message of its Status answer, else the exception's. */
    private static String why(ApiException e) {
        try {
            V1Status status = JSON.getGson().fromJson(e.getResponseBody(), V1Status.class);
            if (status != null && status.getMessage() != null) {
                return status.getMessage();
            }
        } catch (RuntimeException notAStatus) {
            log.debug("the answer to a Job's apply is no Status: {}", e.getResponseBody());
        }
        return e.getMessage();
    }

    /** Best effort, as the original: a delete that fails is logged, and tried again at the next reconcile. */
    private static void deleteBeyondLimits(CronJob cronJob, ChildJobs jobs, ReconcileContext context) {
        Integer failedLimit = cronJob.getSpec().getFailedJobsHistoryLimit();
        Integer successfulLimit = cronJob.getSpec().getSuccessfulJobsHistoryLimit();
        List<V1Job> old = new ArrayList<>();
        if (failedLimit != null) {
            old.addAll(ChildJobs.beyond(jobs.failed(), failedLimit));
        }
        if (successfulLimit != null) {
            old.addAll(ChildJobs.beyond(jobs.successful(), successfulLimit));
        }
        for (V1Job job : old) {
            try {
                context.delete(job);
            } catch (ApiException e) {
                log.warn("unable to delete old job {} of CronJob {}: {}", job.getMetadata().getName(),
                        cronJob.getMetadata().getName(), e.getMessage());
            }
        }
    }

    /**
     * The run's Job: {@code <cronjob>-<run in Unix seconds>}, the template's labels, annotations and spec.
     *
     * @throws IllegalArgumentException when the template is no JobTemplateSpec (client-java's models refuse unknown
     *                                  fields and missing required ones)
     * @throws JsonParseException       when a field of the template has the wrong type
     */
    static V1Job job(CronJob cronJob, Instant run) {
        V1JobTemplateSpec template = JSON.getGson().fromJson(cronJob.getSpec().getJobTemplate(),
                V1JobTemplateSpec.class);
        V1ObjectMeta templateMetadata = template.getMetadata() == null ? new V1ObjectMeta() : template.getMetadata();
        Map<String, String> annotations = new HashMap<>(templateMetadata.getAnnotations() == null ? Map.of()
                : templateMetadata.getAnnotations());
        annotations.put(ChildJobs.SCHEDULED_AT, run.toString());
        return new V1Job().apiVersion("batch/v1").kind("Job")
                .metadata(new V1ObjectMeta().namespace(cronJob.getMetadata().getNamespace())
                        .name(cronJob.getMetadata().getName() + "-" + run.getEpochSecond())
                        .labels(templateMetadata.getLabels()).annotations(annotations))
                .spec(template.getSpec());
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant lastScheduled(CronJob cronJob) {
        return cronJob.getStatus() == null || cronJob.getStatus().getLastScheduleTime() == null ? null
                : cronJob.getStatus().getLastScheduleTime().toInstant();
    }

    private static CronJob.Status status(CronJob cronJob) {
        if (cronJob.getStatus() == null) {
            cronJob.setStatus(new CronJob.Status());
        }
        return cronJob.getStatus();
    }
}
