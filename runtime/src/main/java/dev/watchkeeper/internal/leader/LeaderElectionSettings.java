package dev.watchkeeper.internal.leader;

import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * Which Lease the leader elector competes for, as whom, and its timing (client-go's numbers by default).
 *
 * <pre>{@code
 * LeaderElectionSettings settings = LeaderElectionSettings.of("my-app-leader", "default", "pod-a-x7k2");
 * }</pre>
 *
 * The timing must satisfy {@code leaseDuration > renewDeadline > 1.2 × retryPeriod}: a leader gives up when it
 * could not renew for {@code renewDeadline}, which must come before another replica may take the Lease
 * ({@code leaseDuration} after it last saw it change), and leave room for at least one jittered retry.
 *
 * @param leaseName      the {@code coordination.k8s.io/v1} Lease
 * @param leaseNamespace its namespace
 * @param identity       who we are in {@code spec.holderIdentity}; unique per replica
 * @param leaseDuration  how long others wait after they last saw the Lease change before they take it; whole
 *                       seconds (the Lease counts in seconds); default {@value #DEFAULT_LEASE_DURATION}
 * @param renewDeadline  how long the leader keeps trying to renew before it stops leading; default
 *                       {@value #DEFAULT_RENEW_DEADLINE}
 * @param retryPeriod    how often the leader renews and others try to acquire (the latter jittered by up to 1.2×);
 *                       default {@value #DEFAULT_RETRY_PERIOD}
 * @param releaseOnCancel whether a leader that stops clears the Lease, so another takes over within a retry period;
 *                       default {@value #DEFAULT_RELEASE_ON_CANCEL}
 */
public record LeaderElectionSettings(String leaseName, String leaseNamespace, String identity,
        Duration leaseDuration, Duration renewDeadline, Duration retryPeriod, boolean releaseOnCancel) {

    /** client-go's factor: a follower waits {@code retryPeriod × (1 + r·1.2)} between attempts. */
    public static final double JITTER_FACTOR = 1.2;

    /** client-go's timing, written as Spring Boot binds it, so the Boot layer's property defaults are these. */
    public static final String DEFAULT_LEASE_DURATION = "15s";
    public static final String DEFAULT_RENEW_DEADLINE = "10s";
    public static final String DEFAULT_RETRY_PERIOD = "2s";
    public static final String DEFAULT_RELEASE_ON_CANCEL = "true";

    public LeaderElectionSettings {
        requireText("leaseName", leaseName);
        requireText("leaseNamespace", leaseNamespace);
        requireText("identity", identity);
        Objects.requireNonNull(leaseDuration, "leaseDuration");
        Objects.requireNonNull(renewDeadline, "renewDeadline");
        Objects.requireNonNull(retryPeriod, "retryPeriod");
        InvalidSettingException.requirePositive("retryPeriod", retryPeriod);
        if (leaseDuration.toNanos() % 1_000_000_000L != 0 || leaseDuration.getSeconds() < 1) {
            throw new InvalidSettingException("leaseDuration", leaseDuration,
                    "must be a whole number of seconds, at least 1 (the Lease counts in seconds)");
        }
        if (renewDeadline.compareTo(leaseDuration) >= 0) {
            throw new InvalidSettingException("renewDeadline", renewDeadline,
                    "must be shorter than the lease-duration (" + seconds(leaseDuration) + ")");
        }
        if (renewDeadline.toNanos() <= JITTER_FACTOR * retryPeriod.toNanos()) {
            throw new InvalidSettingException("retryPeriod", retryPeriod,
                    "must be shorter than the renew-deadline (" + seconds(renewDeadline) + ") divided by "
                            + JITTER_FACTOR + ", so that a jittered retry fits in it");
        }
    }

    /** client-go's timing and releasing on cancel, the {@code DEFAULT_*} constants. */
    public static LeaderElectionSettings of(String leaseName, String leaseNamespace, String identity) {
        return new LeaderElectionSettings(leaseName, leaseNamespace, identity,
                DurationFormatterUtils.detectAndParse(DEFAULT_LEASE_DURATION),
                DurationFormatterUtils.detectAndParse(DEFAULT_RENEW_DEADLINE),
                DurationFormatterUtils.detectAndParse(DEFAULT_RETRY_PERIOD),
                Boolean.parseBoolean(DEFAULT_RELEASE_ON_CANCEL));
    }

    /** These settings with other Lease timing (checked by the same rules). */
    public LeaderElectionSettings withTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        return new LeaderElectionSettings(leaseName, leaseNamespace, identity, leaseDuration, renewDeadline,
                retryPeriod, releaseOnCancel);
    }

    /** These settings, releasing the Lease on close or not. */
    public LeaderElectionSettings withReleaseOnCancel(boolean releaseOnCancel) {
        return new LeaderElectionSettings(leaseName, leaseNamespace, identity, leaseDuration, renewDeadline,
                retryPeriod, releaseOnCancel);
    }

    /** These settings with another identity for this replica. */
    public LeaderElectionSettings withIdentity(String identity) {
        return new LeaderElectionSettings(leaseName, leaseNamespace, identity, leaseDuration, renewDeadline,
                retryPeriod, releaseOnCancel);
    }

    /** How long in-flight reconciles may run on after a lost Lease: they end before another replica can take it. */
    public Duration lossGrace() {
        return leaseDuration.minus(renewDeadline);
    }

    /** {@code namespace/name}, for logs. */
    public String lease() {
        return leaseNamespace + "/" + leaseName;
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.getSeconds() + "s" : duration.toMillis() + "ms";
    }

    private static void requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidSettingException(field, value, "must not be empty");
        }
    }
}
