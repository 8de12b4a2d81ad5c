package dev.watchkeeper.internal.shard;

import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.leader.LeaseLock;
import dev.watchkeeper.internal.leader.LeaseRelease;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One replica's part in sharding: its member Lease, the assignment of the {@value Slots#COUNT} slots over the live
 * members ({@link SlotAssignment}), and the fenced hand-over that drives its {@link ShardParticipant}s, on a thread
 * of its own.
 *
 * <pre>{@code
 * ShardCoordinator coordinator = ShardCoordinator.builder(apiClient, ShardingSettings.of("my-app", "default", id))
 *         .build();
 * coordinator.addParticipant(participant);   // before start
 * coordinator.start();                       // returns at once
 * coordinator.snapshot();                    // epoch, members, assigned and active slots, phase
 * coordinator.close();                       // narrows to nothing, then releases the member Lease
 * }</pre>
 *
 * <p><b>Membership.</b> Every retry period the replica lists the group's member Leases (label
 * {@value #GROUP_LABEL}; {@code Membership} judges which are live by when this replica saw them change), then
 * creates or renews its own ({@code <group>-<identity>}, {@code MemberLease}: holder, duration, renew time and the
 * epoch it adopted with the slots that epoch gives it, annotations {@value #ADOPTED_EPOCH} and
 * {@value #CLAIMED_SLOTS}). This replica is live while it renews within its renew
 * deadline; when it cannot, it narrows every participant to no slot at once and stays {@code LOST} until it renews
 * again, then joins anew.
 *
 * <p><b>Hand-over.</b> When the live members' epoch changes, the replica narrows its participants to what it keeps,
 * adopts the epoch once they drained (its Lease then claims the epoch's slots), and widens to each new slot once no
 * other live member's Lease claims it ({@code HandOver}, which also carries the argument why no slot is active on
 * two replicas at once). Right after it writes an adoption it reads the others' Leases again at once, then every
 * quarter retry period until it has all its slots.
 *
 * <p><b>Close.</b> Narrows every participant to no slot and waits (up to the renew deadline) for them to drain, then
 * releases the member Lease ({@link LeaseRelease}: reads it, clears the holder, retries on 409) so the others
 * rebalance at their next read instead of after a lease duration, and deletes it. Live members delete the Leases of
 * members that expired or were released (each only if unchanged since they saw it), so Leases of replicas long gone
 * do not pile up.
 */
public final class ShardCoordinator implements AutoCloseable {

    /** The label every member Lease of a group carries, with the group as value. */
    public static final String GROUP_LABEL = "watchkeeper.dev/shard-group";

    /** The annotation in which a member records the epoch it adopted. */
    public static final String ADOPTED_EPOCH = "watchkeeper.dev/adopted-epoch";

    /** The annotation in which a member records the slots its adopted epoch gives it ({@link Slots#hex()}). */
    public static final String CLAIMED_SLOTS = "watchkeeper.dev/claimed-slots";

    private static final Logger log = LoggerFactory.getLogger(ShardCoordinator.class);

    private final ShardingSettings settings;
    private final TimeSource time;
    private final ThreadFactory threadFactory;
    private final List<ShardingListener> listeners = new CopyOnWriteArrayList<>();
    private final Object monitor = new Object();

    // Touched by the coordinator's thread only (or by a test calling step() on its own, before any start).
    private final Membership membership;
    private final MemberLease lease;
    private final HandOver handOver;
    /** Whether the last call failed: the first failure of a run is a warning, the rest are debug. */
    private boolean failing;
    private volatile ShardingSnapshot snapshot;
    private volatile boolean closed;
    private boolean shutDown;
    private Thread thread;

    private ShardCoordinator(Builder builder) {
        this.settings = builder.settings;
        this.time = builder.time;
        this.threadFactory = builder.threadFactory;
        ServerWaits.on(builder.apiClient, time);
        this.membership = new Membership(builder.apiClient, settings);
        this.lease = new MemberLease(builder.apiClient, settings, time);
        this.handOver = new HandOver(settings.identity(), this::wake, this::activeSet);
        publish();
    }

    /** A coordinator for {@code settings}' group, talking through {@code apiClient}. */
    public static Builder builder(ApiClient apiClient, ShardingSettings settings) {
        return new Builder(apiClient, settings);
    }

    /** A participant driven by this coordinator; add every one before {@link #start}. */
    public void addParticipant(ShardParticipant participant) {
        Objects.requireNonNull(participant, "participant");
        synchronized (this) {
            if (thread != null) {
                throw new IllegalStateException("participants must be added before the coordinator starts");
            }
        }
        handOver.add(participant);
    }

    /** Hears every change of the active slots. */
    public void addListener(ShardingListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Starts taking part on a thread of its own; returns at once. */
    public synchronized void start() {
        if (thread != null || closed) {
            throw new IllegalStateException("sharding for " + settings.describe() + " was already started");
        }
        thread = threadFactory.newThread(this::run);
        thread.setName("watchkeeper-sharding");
        thread.start();
    }

    /**
     * Stops: narrows every participant to no slot, waits for them to drain, then releases the member Lease. Waits
     * for the coordinator's thread (at most about two renew deadlines).
     */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            running = thread;
        }
        wake();
        if (running == null) {
            shutDown();
        } else if (running != Thread.currentThread()) {
            try {
                running.join(settings.renewDeadline().multipliedBy(2).plusSeconds(1).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public ShardingSettings settings() {
        return settings;
    }

    /** The state as last observed; never {@code null}. */
    public ShardingSnapshot snapshot() {
        return snapshot;
    }

    // ---- the loop

    private void run() {
        try {
            while (!closed) {
                Instant started = now();
                // rounds start a period apart, however long one takes: others' renewals are seen a period late at most
                Duration next = step().minus(Duration.between(started, now()));
                synchronized (monitor) {
                    // a drain that completes ends the wait: its adoption is written at once
                    time.await(monitor, next, () -> closed || handOver.drained());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("sharding: {} stopped on an unexpected failure; it reconciles nothing from now on",
                    settings.identity(), e);
        } finally {
            shutDown();
        }
    }

    /**
     * One round: read the group's Leases, widen or start a hand-over, record a finished drain, renew our Lease, delete
     * the Leases of members that left.
     * Returns how long to wait before the next round: none right after a new adoption was written, a quarter retry
     * period while this replica adopted an epoch but waits for slots others still claim, else a retry period; never
     * past the moment another member's Lease expires.
     */
    Duration step() {
        Instant now = now();
        if (lease.missedDeadline(now)) {
            lose();
        }
        boolean read = read(now);
        if (read && !lease.lost()) {
            handOver.advance(SlotAssignment.of(membership.liveIdentities(now)), lease.writtenAdoption(), membership,
                    now);
        }
        handOver.settleDrain();
        String adoptedBefore = lease.writtenAdoption();
        renew(now()); // stamped as sent: the list before it may have taken a while
        if (read && !lease.lost()) {
            membership.deleteLeftBehind(now, lease.callLimit(now())); // after the round's own work: it is tidying
        }
        publish();
        if (!lease.lost() && lease.writtenAdoption() != null && !lease.writtenAdoption().equals(adoptedBefore)) {
            return Duration.ZERO; // a new claim is written: read at once whether the others released what it gains
        }
        boolean waiting = !lease.lost() && handOver.awaitingOthers(lease.writtenAdoption());
        Duration wait = waiting ? settings.retryPeriod().dividedBy(4) : settings.retryPeriod();
        // A member that stops renewing is dropped at the round after it expires: wake then, not up to a period later.
        return membership.nextExpiry(now)
                .map(expiry -> Duration.between(now, expiry))
                .filter(untilExpiry -> untilExpiry.compareTo(wait) < 0)
                .orElse(wait);
    }

    /** Lists the group's Leases into the membership view; false when the list failed. */
    private boolean read(Instant now) {
        try {
            membership.read(now, lease.callLimit(now));
            return true;
        } catch (ApiException e) {
            failed("cannot list the member Leases", e);
            return false;
        }
    }

    /** Creates or renews our Lease with the epoch we adopted; on a failure past the renew deadline, loses. */
    private void renew(Instant now) {
        try {
            lease.renew(now, handOver.adoption());
            failing = false;
        } catch (ApiException e) {
            failed("cannot renew its member Lease " + settings.memberLeaseName(), e);
            if (lease.missedDeadline(now())) {
                lose();
            }
        }
    }

    /**
     * Our Lease could not be renewed within the renew deadline: the others may count us expired once a lease
     * duration passed, so we stop reconciling anything now.
     */
    private void lose() {
        lease.lose();
        handOver.abandon();
        log.warn("sharding: {} could not renew its member Lease {} within {} ms; it reconciles nothing until it "
                + "renews again", settings.identity(), settings.memberLeaseName(), settings.renewDeadline().toMillis());
        handOver.narrowToNothing();
    }

    private void shutDown() {
        synchronized (this) {
            if (shutDown) {
                return;
            }
            shutDown = true;
        }
        boolean drained = awaitDrain(handOver.narrowToNothing());
        if (!lease.written()) {
            return; // never written: nothing to release
        }
        if (!drained) {
            log.warn("sharding: {} left its member Lease {} to expire: its participants did not drain within {} ms",
                    settings.identity(), settings.memberLeaseName(), settings.renewDeadline().toMillis());
            return;
        }
        lease.release();
        publish();
    }

    private boolean awaitDrain(CompletableFuture<Void> drain) {
        try {
            drain.get(settings.renewDeadline().toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            log.error("sharding: a participant failed to drain on close", e.getCause());
            return false;
        } catch (TimeoutException e) {
            return false;
        }
    }

    /** The hand-over set the active slots: publish, and tell the listeners when they changed. */
    private void activeSet(Slots before, Slots next) {
        publish();
        if (before.equals(next)) {
            return;
        }
        for (ShardingListener listener : listeners) {
            try {
                listener.activeSlotsChanged(before, next, snapshot);
            } catch (RuntimeException e) {
                log.error("sharding: a listener failed on the change of active slots to {}", next, e);
            }
        }
    }

    private void failed(String what, ApiException e) {
        if (!failing && e.getCode() != 409) { // a conflict is someone else's write, not a failure
            log.warn("sharding: {} {}: {}; retrying", settings.identity(), what, LeaseLock.describe(e));
        } else {
            log.debug("sharding: {} {}: {}", settings.identity(), what, LeaseLock.describe(e));
        }
        failing = e.getCode() != 409;
    }

    private void wake() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    private void publish() {
        snapshot = ShardingSnapshots.of(settings, lease, membership, handOver, now());
    }

    private Instant now() {
        return time.clock().instant();
    }

    /** Builds a {@link ShardCoordinator}; time and threads have defaults. */
    public static final class Builder {

        private final ApiClient apiClient;
        private final ShardingSettings settings;
        private TimeSource time = TimeSource.system();
        private ThreadFactory threadFactory = DaemonThreads.factory();

        private Builder(ApiClient apiClient, ShardingSettings settings) {
            this.apiClient = Objects.requireNonNull(apiClient, "apiClient");
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        public Builder timeSource(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Where the coordinator's thread comes from; default a daemon platform thread. */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        public ShardCoordinator build() {
            return new ShardCoordinator(this);
        }
    }
}
