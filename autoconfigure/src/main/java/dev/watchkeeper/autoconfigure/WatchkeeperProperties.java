package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.internal.reconcile.RateLimit;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.watch.InitialListStrategy;
import dev.watchkeeper.internal.watch.ListSemantics;
import dev.watchkeeper.internal.watch.WatchOptions;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of Watchkeeper's watchers and reconcilers ({@code watchkeeper.*}). Per-watcher and per-reconciler
 * entries override the global values for the watcher or reconciler of that name; a name with characters other than
 * {@code a-z}, {@code 0-9} and {@code -} goes in brackets. Component names match the fields of the runtime settings
 * they feed ({@code maxInterval} of {@code BackOffSettings}), which is how a refused value names its property.
 *
 * <pre>
 * watchkeeper.backoff.max-interval=1m
 * watchkeeper.watchers[configmaps@default].watch.page-size=100
 * watchkeeper.reconcilers.generator.concurrency=4
 * </pre>
 *
 * @param enabled     Whether Watchkeeper starts any watcher or reconciler
 * @param backoff     How every watcher backs off after a failure (client-go's reflector numbers)
 * @param watch       How every watcher lists and watches
 * @param reconcile   How reconcilers retry failing objects and shut down
 * @param readiness   How watchers take part in the application's readiness
 * @param leaderElection Whether reconcilers run only on the replica that holds a Lease
 * @param sharding    Whether the replicas split the objects among them (member Leases)
 * @param shard       Which slice of the objects this deployment reconciles
 * @param watchers    Watchers declared in properties, and overrides of other watchers, by watcher name
 * @param reconcilers Per-reconciler overrides, by reconciler name
 * @param crds        Whether start-up applies the CRDs of the reconcilers' custom resources
 */
@ConfigurationProperties("watchkeeper")
public record WatchkeeperProperties(@DefaultValue("true") boolean enabled, @DefaultValue Backoff backoff,
        @DefaultValue Watch watch, @DefaultValue Reconcile reconcile, @DefaultValue Readiness readiness,
        @DefaultValue LeaderElection leaderElection, @DefaultValue Sharding sharding, @DefaultValue Shard shard, Map<String, WatcherProperties> watchers,
        Map<String, ReconcilerProperties> reconcilers,
        @DefaultValue Crds crds) {

    public WatchkeeperProperties {
        watchers = watchers == null ? Map.of() : Map.copyOf(watchers);
        reconcilers = reconcilers == null ? Map.of() : Map.copyOf(reconcilers);
    }

    /**
     * A slice of the cluster for this deployment: several deployments with different selectors (and different Lease
     * names) each reconcile their own objects. Read by the {@code @Reconciler} parser (as the placeholder
     * {@code ${watchkeeper.shard.label-selector:}}), so the early watcher beans and the reconcilers agree.
     *
     * @param labelSelector Added to the label selector of every reconciler's primary watcher (owned and watched
     *                      secondaries are not filtered, so owned objects need not carry the label)
     */
    public record Shard(String labelSelector) {
    }

    /**
     * CustomResourceDefinitions generated from the custom resource classes ({@code CustomResourceDefinitions}).
     *
     * @param apply For development: before any watcher starts, server-side apply (field manager
     *              {@code watchkeeper}) the CRD of every {@code @KubernetesResource} class a reconciler reads (but
     *              its {@code ownsWhenServed} kinds), and wait until each is Established; needs the right to patch
     *              CRDs
     */
    public record Crds(@DefaultValue("false") boolean apply) {
    }

    /**
     * How watchers take part in readiness ({@code /actuator/health/readiness}).
     *
     * @param waitForSync Keep the application out of service until every watcher has completed its first sync
     */
    public record Readiness(@DefaultValue("true") boolean waitForSync) {
    }

    /**
     * Leader election on a {@code coordination.k8s.io/v1} Lease (client-go's semantics and defaults): watchers run
     * on every replica, reconcilers only on the one holding the Lease. Requires
     * {@code lease-duration > renew-deadline > 1.2 × retry-period}.
     *
     * @param enabled         Run reconcilers only while this replica holds the Lease
     * @param leaseName       The Lease; unset = {@code <spring.application.name>-leader}, or {@code watchkeeper-leader}
     * @param leaseNamespace  Its namespace; unset = the pod's (from the service account mount), else {@code default}
     * @param identity        This replica in the Lease's holderIdentity; unset = the host name (the pod's name) and a
     *                        random suffix
     * @param leaseDuration   How long others wait after they last saw the Lease renewed before they take it (whole
     *                        seconds)
     * @param renewDeadline   How long the leader keeps failing to renew before it stops reconciling
     * @param retryPeriod     How often the leader renews and the others try to acquire (these jittered by up to 1.2×)
     * @param releaseOnCancel Clear the Lease when the application stops, so another replica takes over within a retry
     *                        period instead of a lease duration
     */
    public record LeaderElection(@DefaultValue("false") boolean enabled, String leaseName, String leaseNamespace,
            String identity, @DefaultValue(LeaderElectionSettings.DEFAULT_LEASE_DURATION) Duration leaseDuration,
            @DefaultValue(LeaderElectionSettings.DEFAULT_RENEW_DEADLINE) Duration renewDeadline,
            @DefaultValue(LeaderElectionSettings.DEFAULT_RETRY_PERIOD) Duration retryPeriod,
            @DefaultValue(LeaderElectionSettings.DEFAULT_RELEASE_ON_CANCEL) boolean releaseOnCancel) {
    }

    /**
     * Active-active sharding: every replica holds a member Lease ({@code <group>-<identity>}, labelled with the
     * group), the live members split the slots of the uid-hash space, and each reconciles only its share, handing
     * slots over so that none is reconciled on two replicas at once. The timing follows leader election's rules and
     * defaults ({@code lease-duration > renew-deadline > 1.2 × retry-period}). Not with leader election.
     *
     * @param enabled       Split the objects among the replicas of this application
     * @param group         The name the replicas share; unset = {@code spring.application.name}, or
     *                      {@code watchkeeper}
     * @param namespace     Where the member Leases live; unset = the pod's (from the service account mount), else
     *                      {@code default}
     * @param identity      This replica; unset = the host name (the pod's name) and a random suffix
     * @param leaseDuration How long the others count a replica live after they last saw its Lease renewed (whole
     *                      seconds)
     * @param renewDeadline How long a replica keeps failing to renew before it reconciles nothing
     * @param retryPeriod   How often a replica renews its Lease and reads the others'
     */
    public record Sharding(@DefaultValue("false") boolean enabled, String group, String namespace, String identity,
            @DefaultValue(LeaderElectionSettings.DEFAULT_LEASE_DURATION) Duration leaseDuration,
            @DefaultValue(LeaderElectionSettings.DEFAULT_RENEW_DEADLINE) Duration renewDeadline,
            @DefaultValue(LeaderElectionSettings.DEFAULT_RETRY_PERIOD) Duration retryPeriod) {
    }

    /**
     * A watcher's backoff after a failure: each wait is {@code d + rand·jitter·d} with {@code d} growing from the
     * initial interval by the multiplier up to the max interval.
     *
     * @param initialInterval The first wait
     * @param maxInterval     The cap of the growing wait (jitter comes on top)
     * @param multiplier      Growth per consecutive failure
     * @param jitter          Random extra fraction of the wait; above 1 is allowed, as client-go's
     *                        {@code wait.Jitter(d, maxFactor)} allows it (its leader election uses 1.2): the waits
     *                        then spread over {@code [d, (1 + jitter)·d)}
     * @param resetAfter      Start over from the initial interval when the previous backoff is older than this
     * @param maxElapsedTime  Give up (watcher STOPPED, health DOWN) after failing this long; unset = never
     */
    public record Backoff(@DefaultValue(BackOffSettings.DEFAULT_INITIAL_INTERVAL) Duration initialInterval,
            @DefaultValue(BackOffSettings.DEFAULT_MAX_INTERVAL) Duration maxInterval,
            @DefaultValue(BackOffSettings.DEFAULT_MULTIPLIER) double multiplier,
            @DefaultValue(BackOffSettings.DEFAULT_JITTER) double jitter,
            @DefaultValue(BackOffSettings.DEFAULT_RESET_AFTER) Duration resetAfter, Duration maxElapsedTime) {
    }

    /**
     * How watchers list and watch.
     *
     * @param pageSize           Items per list page ({@code limit})
     * @param timeout            Server-side timeout of each watch call; a watch silent for 5 s longer is broken
     * @param initialList        {@code list-watch}, {@code streaming} ({@code sendInitialEvents}) or {@code auto}
     * @param listSemantics      The lists of list-watch: {@code consistent} (resourceVersion unset, paged) or
     *                           {@code cached} (client-go's: from the API server's watch cache, resourceVersion=0 first
     *                           and the last synced version on relists, unpaged; consistent only when that version is
     *                           refused as expired or too large)
     * @param stripManagedFields Drop {@code metadata.managedFields} before caching
     * @param autoFallbackAfter  With {@code auto}: fall back to list-watch when a streaming list has not ended its
     *                           initial events after this long
     * @param maxEventSize       A watch event longer than this breaks the watch instead of being read into memory
     */
    public record Watch(@DefaultValue(WatchOptions.DEFAULT_PAGE_SIZE) int pageSize,
            @DefaultValue(WatchOptions.DEFAULT_TIMEOUT) Duration timeout,
            @DefaultValue(WatchOptions.DEFAULT_INITIAL_LIST) InitialListStrategy initialList,
            @DefaultValue(WatchOptions.DEFAULT_LIST_SEMANTICS) ListSemantics listSemantics,
            @DefaultValue(WatchOptions.DEFAULT_STRIP_MANAGED_FIELDS) boolean stripManagedFields,
            @DefaultValue(WatchOptions.DEFAULT_AUTO_FALLBACK_AFTER) Duration autoFallbackAfter,
            @DefaultValue(WatchOptions.DEFAULT_MAX_EVENT_SIZE) DataSize maxEventSize) {
    }

    /**
     * How reconcilers handle failures and shutdown.
     *
     * @param backoff       Per-object retry delays after a reconcile throws
     * @param shutdownGrace How long in-flight reconciles may finish when the application stops
     * @param resyncPeriod  Re-enqueue every object this often (±10 % jitter) to correct drift; 0 = off
     * @param debounce      How long an object changed by a watch event waits before it is reconciled, counted from the
     *                      first event of a burst, for reconcilers whose annotation sets none; 0 = off
     * @param shutdownDrain On shutdown, still reconcile the objects already queued (within the shutdown grace)
     *                      instead of dropping them; never when the Lease is lost
     * @param rateLimit     An overall limit on the rate of retries after errors, per reconciler
     * @param statusConditions Whether reconcilers write each reconcile's outcome in their objects' status conditions
     * @param maxLowPriorityWait How long an object queued by a list, relist or resync waits while live changes,
     *                      requeues and retries go first, before the two take turns; 0 = no priorities (one FIFO)
     * @param readYourWrites The fence that holds a reconcile back until the caches hold the reconciler's own writes
     * @param timeout       How long one reconcile may run before its worker is interrupted and it counts as timed out
     *                      (retried with the backoff), for reconcilers whose annotation sets none; 0 = none
     * @param writeBudget   A limit on the rate of the writes reconciles make through their context, per reconciler
     */
    public record Reconcile(@DefaultValue ReconcileBackoff backoff,
            @DefaultValue(ReconcilerSettings.DEFAULT_SHUTDOWN_GRACE) Duration shutdownGrace,
            @DefaultValue(ReconcilerSettings.DEFAULT_RESYNC_PERIOD) Duration resyncPeriod,
            @DefaultValue(ReconcilerSettings.DEFAULT_DEBOUNCE) Duration debounce,
            @DefaultValue(ReconcilerSettings.DEFAULT_SHUTDOWN_DRAIN) boolean shutdownDrain,
            @DefaultValue ReconcileRateLimit rateLimit, @DefaultValue StatusConditions statusConditions,
            @DefaultValue(ReconcilerSettings.DEFAULT_MAX_LOW_PRIORITY_WAIT) Duration maxLowPriorityWait,
            @DefaultValue ReadYourWrites readYourWrites,
            @DefaultValue(ReconcilerSettings.DEFAULT_TIMEOUT) Duration timeout,
            @DefaultValue WriteBudget writeBudget) {
    }

    /**
     * Read your own writes: a key whose object, or a child its reconcile wrote, is older in the cache than what the
     * reconciler wrote through its {@code ReconcileContext} waits, holding no worker, until the watchers deliver that
     * version (or a later one, or the deletion).
     *
     * @param timeout How long a key waits at most before it is reconciled anyway (the timeout is counted); 0 = the
     *                fence is off
     */
    public record ReadYourWrites(@DefaultValue(ReconcilerSettings.DEFAULT_READ_YOUR_WRITES_TIMEOUT) Duration timeout) {
    }

    /**
     * A token bucket on the writes each reconciler's reconciles make through their context (apply, status,
     * conditions, finalizer patches; not Events): a write past the budget waits for its token inside the reconcile.
     * One bucket per reconciler; the client's other traffic, Lease renewals above all, never takes from it.
     *
     * @param enabled Writes wait for a token of the reconciler's bucket
     * @param qps     Tokens added per second, so writes per second once the burst is spent
     * @param burst   Tokens the bucket holds, so writes that may go at once
     */
    public record WriteBudget(@DefaultValue("false") boolean enabled,
            @DefaultValue(ReconcilerSettings.DEFAULT_WRITE_BUDGET_QPS) double qps,
            @DefaultValue(ReconcilerSettings.DEFAULT_WRITE_BUDGET_BURST) int burst) {
    }

    /**
     * The conditions reconcilers write after each reconcile, with kstatus' meanings: {@code Ready}, and
     * {@code Reconciling} or {@code Stalled} after an error. Custom resources whose status has a conditions list and
     * a status subresource only.
     *
     * @param enabled Write {@code Ready}, {@code Reconciling} and {@code Stalled} after each reconcile
     */
    public record StatusConditions(@DefaultValue("true") boolean enabled) {
    }

    /**
     * client-go's overall token bucket on the retries after errors: each retry waits for the later of its per-object
     * backoff and a token; events, requeues and resyncs take none. One bucket per reconciler.
     *
     * @param enabled Retries also wait for a token of the reconciler's bucket
     * @param qps     Tokens added per second, so retries per second once the burst is spent
     * @param burst   Tokens the bucket holds, so retries that may start at once
     */
    public record ReconcileRateLimit(@DefaultValue("false") boolean enabled,
            @DefaultValue(RateLimit.DEFAULT_QPS) double qps, @DefaultValue(RateLimit.DEFAULT_BURST) int burst) {
    }

    /**
     * Per-object backoff of reconcilers (client-go's per-item curve by default, {@code ReconcilerSettings}'
     * {@code DEFAULT_BACKOFF_*}; reset on success).
     *
     * @param initialInterval The first retry delay
     * @param maxInterval     The cap of the delay
     * @param multiplier      Growth per consecutive failure of one object
     * @param jitter          Random extra fraction of the delay: each is {@code d + rand·jitter·d}; above 1 is
     *                        allowed, as in client-go
     */
    public record ReconcileBackoff(
            @DefaultValue(ReconcilerSettings.DEFAULT_BACKOFF_INITIAL_INTERVAL) Duration initialInterval,
            @DefaultValue(ReconcilerSettings.DEFAULT_BACKOFF_MAX_INTERVAL) Duration maxInterval,
            @DefaultValue(ReconcilerSettings.DEFAULT_BACKOFF_MULTIPLIER) double multiplier,
            @DefaultValue(ReconcilerSettings.DEFAULT_BACKOFF_JITTER) double jitter) {
    }
}
