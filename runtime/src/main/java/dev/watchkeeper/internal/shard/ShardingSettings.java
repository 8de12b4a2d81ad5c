package dev.watchkeeper.internal.shard;

import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.internal.settings.InvalidSettingException;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * Which group of replicas this one shares the objects with, as whom, and the timing of its member Lease: the same
 * numbers and rules as leader election ({@link LeaderElectionSettings}), {@code leaseDuration > renewDeadline >
 * 1.2 × retryPeriod}, since a member that cannot renew must stop before the others may take its slots.
 *
 * <pre>{@code
 * ShardingSettings settings = ShardingSettings.of("my-app", "default", "pod-a-x7k2");
 * settings.memberLeaseName();   // "my-app-pod-a-x7k2"
 * }</pre>
 *
 * @param group         the name the replicas of one application share: a label value, on every member Lease
 * @param namespace     where the member Leases live
 * @param identity      this replica, unique in the group ({@code spec.holderIdentity} of its member Lease)
 * @param leaseDuration how long others count a member live after they last saw its Lease change; whole seconds
 * @param renewDeadline how long a member keeps failing to renew before it gives up every slot
 * @param retryPeriod   how often a member renews its Lease and reads the others'
 */
public record ShardingSettings(String group, String namespace, String identity, Duration leaseDuration,
        Duration renewDeadline, Duration retryPeriod) {

    /** A label value: at most 63 characters, alphanumerics with {@code -_.} inside. */
    private static final Pattern LABEL_VALUE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    private static final int MAX_NAME = 253;

    public ShardingSettings {
        if (group == null || !LABEL_VALUE.matcher(group).matches()) {
            throw new InvalidSettingException("group", group, "must be a label value: at most 63 letters, digits,"
                    + " '-', '_' or '.', starting and ending with a letter or digit");
        }
        requireText("namespace", namespace);
        requireText("identity", identity);
        // The leader election's checks, so the rules (and messages) are written once; the Lease name is irrelevant.
        new LeaderElectionSettings(group, namespace, identity, Objects.requireNonNull(leaseDuration, "leaseDuration"),
                Objects.requireNonNull(renewDeadline, "renewDeadline"),
                Objects.requireNonNull(retryPeriod, "retryPeriod"), false);
    }

    /** Leader election's timing ({@code LeaderElectionSettings.DEFAULT_*}). */
    public static ShardingSettings of(String group, String namespace, String identity) {
        return new ShardingSettings(group, namespace, identity,
                DurationFormatterUtils.detectAndParse(LeaderElectionSettings.DEFAULT_LEASE_DURATION),
                DurationFormatterUtils.detectAndParse(LeaderElectionSettings.DEFAULT_RENEW_DEADLINE),
                DurationFormatterUtils.detectAndParse(LeaderElectionSettings.DEFAULT_RETRY_PERIOD));
    }

    /** These settings with other member-Lease timing (leader election's rules). */
    public ShardingSettings withTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
        return new ShardingSettings(group, namespace, identity, leaseDuration, renewDeadline, retryPeriod);
    }

    /** These settings with another identity for this replica. */
    public ShardingSettings withIdentity(String identity) {
        return new ShardingSettings(group, namespace, identity, leaseDuration, renewDeadline, retryPeriod);
    }

    /**
     * This replica's member Lease: {@code <group>-<identity>} made a valid object name (lower case; characters other
     * than {@code a-z 0-9 - .} become {@code -}; at most 253 characters, starting and ending alphanumeric).
     */
    public String memberLeaseName() {
        String name = (group + "-" + identity).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        if (name.length() > MAX_NAME) {
            name = name.substring(0, MAX_NAME);
        }
        return name.replaceAll("^[^a-z0-9]+", "").replaceAll("[^a-z0-9]+$", "");
    }

    private static void requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidSettingException(field, value, "must not be empty");
        }
    }

    /** {@code namespace/group}, for logs. */
    public String describe() {
        return namespace + "/" + group;
    }
}
