package dev.watchkeeper.examples.cronjob;

import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CronJob's Jobs by state, as the original classifies them: finished when a {@code Complete} or {@code Failed}
 * condition is {@code True} (the first such condition decides which), active otherwise; and the latest time any of
 * them was scheduled for (its {@code scheduled-at} annotation).
 *
 * @param active         Jobs still running
 * @param successful     Jobs completed
 * @param failed         Jobs failed
 * @param latestSchedule the latest {@code scheduled-at} among them, or {@code null}
 */
record ChildJobs(List<V1Job> active, List<V1Job> successful, List<V1Job> failed, Instant latestSchedule) {

    static final String SCHEDULED_AT = CronJob.GROUP + "/scheduled-at";
    private static final Logger log = LoggerFactory.getLogger(ChildJobs.class);

    static ChildJobs of(List<V1Job> jobs) {
        List<V1Job> active = new ArrayList<>();
        List<V1Job> successful = new ArrayList<>();
        List<V1Job> failed = new ArrayList<>();
        Instant latest = null;
        for (V1Job job : jobs) {
            switch (finished(job)) {
                case "Complete" -> successful.add(job);
                case "Failed" -> failed.add(job);
                default -> active.add(job);
            }
            Instant scheduled = scheduledAt(job);
            if (scheduled != null && (latest == null || scheduled.isAfter(latest))) {
                latest = scheduled;
            }
        }
        return new ChildJobs(active, successful, failed, latest);
    }

    /** {@code Complete}, {@code Failed}, or {@code ""} for a Job still running. */
    private static String finished(V1Job job) {
        List<V1JobCondition> conditions = job.getStatus() == null || job.getStatus().getConditions() == null
                ? List.of() : job.getStatus().getConditions();
        for (V1JobCondition condition : conditions) {
            if (("Complete".equals(condition.getType()) || "Failed".equals(condition.getType()))
                    && "True".equals(condition.getStatus())) {
                return condition.getType();
            }
        }
        return "";
    }

    /** The time {@code job} was scheduled for; {@code null} when it has none or one that cannot be read (logged). */
    static Instant scheduledAt(V1Job job) {
        Map<String, String> annotations = job.getMetadata().getAnnotations();
        String value = annotations == null ? null : annotations.get(SCHEDULED_AT);
        if (value == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            log.warn("Job {}/{}: unable to parse its {} annotation {}; it does not count for the last schedule",
                    job.getMetadata().getNamespace(), job.getMetadata().getName(), SCHEDULED_AT, value);
            return null;
        }
    }

    /** References to the active Jobs, for {@code status.active}. */
    List<V1ObjectReference> activeReferences() {
        return active.stream().map(ChildJobs::reference).toList();
    }

    static V1ObjectReference reference(V1Job job) {
        return new V1ObjectReference().kind("Job").apiVersion("batch/v1").name(job.getMetadata().getName())
                .namespace(job.getMetadata().getNamespace()).uid(job.getMetadata().getUid())
                .resourceVersion(job.getMetadata().getResourceVersion());
    }

    /** Of {@code jobs}, the oldest beyond the newest {@code limit}, by start time (those never started first). */
    static List<V1Job> beyond(List<V1Job> jobs, int limit) {
        List<V1Job> sorted = new ArrayList<>(jobs);
        sorted.sort(Comparator.comparing(ChildJobs::startTime, Comparator.nullsFirst(Comparator.naturalOrder())));
        return sorted.subList(0, Math.max(0, sorted.size() - limit));
    }

    private static OffsetDateTime startTime(V1Job job) {
        return job.getStatus() == null ? null : job.getStatus().getStartTime();
    }
}
