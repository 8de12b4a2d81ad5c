package dev.watchkeeper.internal.leader;

import dev.watchkeeper.internal.api.ServerWaits;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.backoff.TimeSource;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Competes for a {@code coordination.k8s.io/v1} Lease with client-go's {@code LeaderElector} semantics
 * (docs/semantics.md §14), on a thread of its own.
 *
 * <pre>{@code
 * LeaderElector elector = LeaderElector.builder(apiClient, LeaderElectionSettings.of("my-app-leader", "default", id))
 *         .build();
 * elector.addListener(new LeadershipListener() { ... });   // start and stop the guarded work
 * elector.start();                                         // returns at once
 * ...
 * elector.close();                                         // releases the Lease when releaseOnCancel
 * }</pre>
 *
 * <ul>
 *   <li><b>Acquire</b> when the Lease does not exist, is not held, or its record has not changed for
 *       {@code leaseDurationSeconds} of <em>our</em> time since we first saw that record ({@code observedTime}):
 *       no replica trusts another's clock. A follower tries every {@code retryPeriod × (1 + r·1.2)}.</li>
 *   <li><b>Renew</b> every {@code retryPeriod}: first optimistically with the version we wrote last; on any failure
 *       (a 409 means someone else wrote) the Lease is read again and the write retried from what it says.</li>
 *   <li><b>Lose</b> at once when the Lease names another holder, or when no renewal succeeded within
 *       {@code renewDeadline} of the start of the last successful one; listeners hear it before anything else
 *       happens, and before another replica can take the Lease.</li>
 *   <li><b>Close</b>: a leader tells its listeners it stops, then (with {@code releaseOnCancel}) reads the Lease
 *       and, if it still names us, clears the holder and sets a duration of 1 s, so a follower takes over within a
 *       retry period; a 409 (someone wrote the Lease since) is retried from a new read ({@link LeaseRelease}).</li>
 * </ul>
 */
public final class LeaderElector implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElector.class);

    /** What one attempt to acquire or renew found. */
    enum Attempt {
        /** We hold the Lease now (acquired, renewed or created). */
        HOLDING,
        /** Another replica holds it and its record is still fresh to us. */
        HELD_BY_OTHER,
        /** The call failed (error, conflict, timeout); nothing is known. */
        FAILED
    }

    private final LeaderElectionSettings settings;
    private final LeaseLock lock;
    private final LeaseRelease leaseRelease;
    private final TimeSource time;
    private final ThreadFactory threadFactory;
    private final DoubleSupplier random;
    private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
    private final Object monitor = new Object();

    // Touched by the election thread (and by tests calling attempt() on theirs); read through the snapshot.
    private LeaseLock.Observed observed;
    private Instant observedTime;
    private volatile boolean leading;
    /** Whether the last attempt failed: the first failure of a run is a warning, the rest are debug. */
    private boolean failing;
    private volatile LeaderElectionSnapshot snapshot;
    private volatile boolean closed;
    private Thread thread;

    private LeaderElector(Builder builder) {
        this.settings = builder.settings;
        ServerWaits.on(builder.apiClient, builder.time);
        this.lock = new LeaseLock(builder.apiClient, settings.leaseNamespace(), settings.leaseName());
        this.time = builder.time;
        this.leaseRelease = new LeaseRelease(lock, settings.identity(), time, settings.retryPeriod());
        this.threadFactory = builder.threadFactory;
        this.random = builder.random;
        publish();
    }

    /** An elector for {@code settings}' Lease, talking through {@code apiClient}. */
    public static Builder builder(ApiClient apiClient, LeaderElectionSettings settings) {
        return new Builder(apiClient, settings);
    }

    /** Listeners added before {@link #start} hear every transition. */
    public void addListener(LeadershipListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** Starts competing on a thread of its own; returns at once. */
    public synchronized void start() {
        if (thread != null || closed) {
            throw new IllegalStateException("leader election for " + settings.lease() + " was already started");
        }
        thread = threadFactory.newThread(this::run);
        thread.setName("watchkeeper-leader-election");
        thread.start();
    }

    /**
     * Stops competing: a leader tells its listeners, then releases the Lease when {@code releaseOnCancel}. Waits for
     * the election thread (at most about a renew deadline).
     */
    @Override
    public void close() {
        Thread running;
        synchronized (this) {
            closed = true;
            running = thread;
        }
        synchronized (monitor) {
            monitor.notifyAll();
        }
        if (running != null && running != Thread.currentThread()) {
            try {
                running.join(settings.renewDeadline().plusSeconds(1).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether this replica leads now. */
    public boolean isLeader() {
        return leading;
    }

    public LeaderElectionSettings settings() {
        return settings;
    }

    /** The state as last observed; never {@code null}. */
    public LeaderElectionSnapshot snapshot() {
        return snapshot;
    }

    // ---- the loop

    private void run() {
        try {
            while (!closed) {
                if (attempt(settings.renewDeadline()) == Attempt.HOLDING) {
                    lead(); // returns on loss, having just read or failed to write the Lease: wait as a follower
                }
                double jitter = 1 + random.getAsDouble() * LeaderElectionSettings.JITTER_FACTOR;
                sleep(Duration.ofNanos((long) (settings.retryPeriod().toNanos() * jitter)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (leading) {
                stopLeading("the application is stopping");
                if (settings.releaseOnCancel()) {
                    release();
                }
            }
        }
    }

    /** Leads until the Lease is lost or the elector closes; returns with {@code leading} still true on close. */
    private void lead() throws InterruptedException {
        Instant renewedAt = observedTime;
        startLeading();
        while (!closed) {
            sleep(settings.retryPeriod());
            Instant deadline = renewedAt.plus(settings.renewDeadline());
            while (!closed) {
                Instant start = now();
                if (!start.isBefore(deadline)) {
                    stopLeading("could not renew the Lease within " + seconds(settings.renewDeadline()));
                    return;
                }
                Attempt attempt = attempt(Duration.between(start, deadline));
                if (attempt == Attempt.HOLDING) {
                    renewedAt = start;
                    break;
                }
                if (attempt == Attempt.HELD_BY_OTHER) {
                    stopLeading("the Lease is held by " + observed.record().holder());
                    return;
                }
                Duration left = Duration.between(now(), deadline);
                sleep(left.compareTo(settings.retryPeriod()) < 0 ? left : settings.retryPeriod());
            }
        }
    }

    /**
     * One try to acquire or renew (client-go's {@code tryAcquireOrRenew}), each call limited to {@code limit}. A
     * leader first writes optimistically over the version it wrote last; if that fails, or for a follower, the Lease
     * is read, and taken only when it is free or its record has not changed for its duration by our clock.
     */
    Attempt attempt(Duration limit) {
        Instant now = now();
        OffsetDateTime stamp = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        int durationSeconds = (int) settings.leaseDuration().getSeconds();
        if (leading && observed != null && holdsObserved() && isFresh(now)) {
            LeaseRecord mine = observed.record();
            try {
                observe(lock.update(observed, new LeaseRecord(settings.identity(), durationSeconds,
                        mine.acquireTime(), stamp, mine.transitions()), limit), now);
                return Attempt.HOLDING;
            } catch (ApiException e) {
                log.debug("leader election: renewing {} over the version we wrote failed ({}); reading it again",
                        settings.lease(), LeaseLock.describe(e));
            }
        }
        try {
            LeaseLock.Observed current = lock.get(limit);
            if (current == null) {
                observe(lock.create(new LeaseRecord(settings.identity(), durationSeconds, stamp, stamp, 0), limit),
                        now);
                return Attempt.HOLDING;
            }
            if (observed == null || !current.record().equals(observed.record())) {
                observedTime = now; // the record changed: its holder is alive, by our clock
            }
            observed = current;
            failing = false;
            publish();
            LeaseRecord record = current.record();
            boolean ours = settings.identity().equals(record.holder());
            if (record.isHeld() && !ours && isFresh(now)) {
                return Attempt.HELD_BY_OTHER;
            }
            LeaseRecord next = ours
                    ? new LeaseRecord(settings.identity(), durationSeconds, record.acquireTime(), stamp,
                            record.transitions())
                    : new LeaseRecord(settings.identity(), durationSeconds, stamp, stamp, record.transitions() + 1);
            observe(lock.update(current, next, limit), now);
            return Attempt.HOLDING;
        } catch (ApiException e) {
            if (!failing && e.getCode() != 409) { // a conflict is someone else's write, not a failure
                log.warn("leader election: {} cannot acquire or renew the Lease {}: {}; retrying",
                        settings.identity(), settings.lease(), LeaseLock.describe(e));
            } else {
                log.debug("leader election: acquiring or renewing {} failed: {}", settings.lease(),
                        LeaseLock.describe(e));
            }
            failing = e.getCode() != 409;
            return Attempt.FAILED;
        }
    }

    /**
     * Clears the holder (client-go's release) when the Lease, read again, still names us; within the renew deadline,
     * retried on conflict.
     */
    private void release() {
        LeaseRelease.Outcome outcome = leaseRelease.release(settings.renewDeadline());
        if (outcome instanceof LeaseRelease.Released released) {
            observe(released.lease(), now());
            log.info("leader election: {} released the Lease {}{}", settings.identity(), settings.lease(),
                    released.attempt() == 1 ? "" : " (attempt " + released.attempt() + ": it had been written since)");
        } else if (outcome instanceof LeaseRelease.NotOurs notOurs) {
            observed = notOurs.lease();
            publish();
            log.info("leader election: {} left the Lease {} as it is: {}", settings.identity(), settings.lease(),
                    notOurs.lease().record().isHeld() ? "it is held by " + notOurs.lease().record().holder()
                            : "nobody holds it");
        } else if (outcome instanceof LeaseRelease.Gone) {
            log.info("leader election: {} found no Lease {} to release: it was deleted", settings.identity(),
                    settings.lease());
        } else if (outcome instanceof LeaseRelease.Failed failed) {
            log.warn("leader election: {} could not release the Lease {} after {} attempt(s) ({}); others take it "
                    + "once it expires", settings.identity(), settings.lease(), failed.attempts(), failed.reason());
        }
    }

    private void startLeading() {
        leading = true;
        publish();
        log.info("leader election: {} is the leader of the Lease {} (transition {})", settings.identity(),
                settings.lease(), observed.record().transitions());
        for (LeadershipListener listener : listeners) {
            try {
                listener.onStartedLeading();
            } catch (RuntimeException e) {
                log.error("leader election: a listener failed on acquiring {}", settings.lease(), e);
            }
        }
    }

    private void stopLeading(String reason) {
        leading = false;
        publish();
        log.info("leader election: {} stopped leading the Lease {}: {}", settings.identity(), settings.lease(),
                reason);
        for (LeadershipListener listener : listeners) {
            try {
                listener.onStoppedLeading();
            } catch (RuntimeException e) {
                log.error("leader election: a listener failed on losing {}", settings.lease(), e);
            }
        }
    }

    private boolean holdsObserved() {
        return settings.identity().equals(observed.record().holder());
    }

    /** Whether the observed record is still within its duration, counted from when we saw it. */
    private boolean isFresh(Instant now) {
        return observedTime.plusSeconds(observed.record().leaseDurationSeconds()).isAfter(now);
    }

    /** Our own write: we saw this record at {@code at}, when we sent it. */
    private void observe(LeaseLock.Observed written, Instant at) {
        failing = false;
        observed = written;
        observedTime = at;
        publish();
    }

    private void publish() {
        LeaseRecord record = observed == null ? null : observed.record();
        snapshot = new LeaderElectionSnapshot(settings.leaseName(), settings.leaseNamespace(), settings.identity(),
                leading ? LeaderElectionSnapshot.Role.LEADER : LeaderElectionSnapshot.Role.FOLLOWER,
                record == null || !record.isHeld() ? null : record.holder(),
                record == null || record.acquireTime() == null ? null : record.acquireTime().toInstant(),
                record == null || record.renewTime() == null ? null : record.renewTime().toInstant(),
                record == null ? 0 : record.transitions());
    }

    private void sleep(Duration delay) throws InterruptedException {
        synchronized (monitor) {
            time.await(monitor, delay, () -> closed);
        }
    }

    private Instant now() {
        return time.clock().instant();
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() / 1000.0 + " s";
    }

    /** Builds a {@link LeaderElector}; time and threads have defaults. */
    public static final class Builder {

        private final ApiClient apiClient;
        private final LeaderElectionSettings settings;
        private TimeSource time = TimeSource.system();
        private ThreadFactory threadFactory = DaemonThreads.factory();
        private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();

        private Builder(ApiClient apiClient, LeaderElectionSettings settings) {
            this.apiClient = Objects.requireNonNull(apiClient, "apiClient");
            this.settings = Objects.requireNonNull(settings, "settings");
        }

        public Builder timeSource(TimeSource time) {
            this.time = Objects.requireNonNull(time, "time");
            return this;
        }

        /** Where the election thread comes from; default a daemon platform thread. */
        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = Objects.requireNonNull(threadFactory, "threadFactory");
            return this;
        }

        /** The r in a follower's {@code retryPeriod × (1 + r·1.2)}, in [0, 1); for tests. */
        Builder random(DoubleSupplier random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        public LeaderElector build() {
            return new LeaderElector(this);
        }
    }
}
