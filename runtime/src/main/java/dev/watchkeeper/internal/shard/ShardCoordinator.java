package dev.watchkeeper.internal.shard;

import dev.watchkeeper.backoff.TimeSource;
import dev.watchkeeper.internal.leader.LeaseLock;
import dev.watchkeeper.internal.leader.LeaseRecord;
import dev.watchkeeper.internal.leader.LeaseRelease;
import dev.watchkeeper.shard.ShardingSettings;
import dev.watchkeeper.shard.ShardingSnapshot;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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
 * {@value #GROUP_LABEL}), then creates or renews its own ({@code <group>-<identity>}: holder, duration, renew time
 * and the epoch it adopted, annotation {@value #ADOPTED_EPOCH}). Another member is live while its Lease was last
 * <em>seen to change</em> less than its {@code leaseDurationSeconds} ago by this replica's clock (client-go's
 * {@code observedTime}; no other machine's clock is read); a released Lease (no holder) is not a member. This
 * replica is live while it renews within its renew deadline; when it cannot, it narrows every participant to no
 * slot at once and stays {@code LOST} until it renews again, then joins anew.
 *
 * <p><b>Hand-over.</b> When the live members' epoch changes, the replica {@code assign}s its new slots to every
 * participant, {@code narrow}s them to {@code active ∩ assigned} and, once every participant drained, writes the
 * new epoch into its Lease (it <em>adopted</em> it). It {@code widen}s to all its assigned slots only when a list
 * read after that write shows every member it counts live with the same adopted epoch. A new member starts with no
 * active slot. While it waits for the others it reads their Leases every quarter retry period.
 *
 * <p><b>Why no slot is active on two replicas at once.</b> Three facts: (1) a replica's active slots are always
 * within the assignment of the epoch its Lease says it adopted, since it narrows and drains before it writes an
 * adoption, and widens only to the assignment of what it wrote; (2) two replicas that compute one epoch computed it
 * from one member set (a 64-bit hash of it), so they assign each slot to one owner; (3) reads and writes of Leases
 * are linearizable. Suppose X and Y both have slot {@code s} active at time T; X widened to it on a list read at
 * {@code rX}, Y at {@code rY}, say {@code rX < rY}. From {@code rX} until T, X's Lease only named epochs that give
 * {@code s} to X (it adopted its epoch before {@code rX}; adopting one that does not would have removed {@code s}
 * first, fact 1). Y's read at {@code rY} either showed X's Lease with Y's own epoch, which would give {@code s} to
 * both (contradicting fact 2), or X judged expired: X's Lease unchanged for a lease duration of Y's time; X stops
 * reconciling when it misses its renew deadline, which is shorter than the lease duration, so X had given up
 * {@code s} before Y could take it (in-flight work of X gets lease duration − renew deadline to end). So a slot
 * that leaves is drained before its replica adopts, and a slot gained is activated only after its previous owner
 * adopted or expired.
 *
 * <p><b>Close.</b> Narrows every participant to no slot and waits (up to the renew deadline) for them to drain, then
 * releases the member Lease ({@link LeaseRelease}: reads it, clears the holder, retries on 409) so the others
 * rebalance at their next read instead of after a lease duration.
 */
public final class ShardCoordinator implements AutoCloseable {

    /** The label every member Lease of a group carries, with the group as value. */
    public static final String GROUP_LABEL = "watchkeeper.dev/shard-group";

    /** The annotation in which a member records the epoch it adopted. */
    public static final String ADOPTED_EPOCH = "watchkeeper.dev/adopted-epoch";

    private static final Logger log = LoggerFactory.getLogger(ShardCoordinator.class);

    /** What this replica last saw of another member's Lease, and when, by its own clock, it last saw it change. */
    private record Seen(LeaseRecord record, String adoptedEpoch, Instant observedTime) {

        boolean live(Instant now) {
            return record.isHeld() && observedTime.plusSeconds(record.leaseDurationSeconds()).isAfter(now);
        }
    }

    private final ShardingSettings settings;
    private final ApiClient apiClient;
    private final LeaseLock lock;
    private final LeaseRelease leaseRelease;
    private final TimeSource time;
    private final ThreadFactory threadFactory;
    private final List<ShardParticipant> participants = new CopyOnWriteArrayList<>();
    private final List<ShardingListener> listeners = new CopyOnWriteArrayList<>();
    private final Object monitor = new Object();

    // Touched by the coordinator's thread only (or by a test calling step() on its own, before any start).
    private LeaseLock.Observed own;
    private Instant renewedAt;
    private final Map<String, Seen> seen = new HashMap<>();
    private SlotAssignment target;
    private Slots assigned = Slots.none();
    private Slots active = Slots.none();
    /** The epoch this replica adopted (drained for): what its next write puts in its Lease. */
    private String adopted;
    private boolean joined;
    private boolean lost;
    /** Whether the last call failed: the first failure of a run is a warning, the rest are debug. */
    private boolean failing;
    private Instant handOverSince;
    private long handOvers;
    private Duration lastHandOver;
    private volatile CompletableFuture<Void> draining;
    private volatile ShardingSnapshot snapshot;
    private volatile boolean closed;
    private boolean shutDown;
    private Thread thread;

    private ShardCoordinator(Builder builder) {
        this.settings = builder.settings;
        this.apiClient = builder.apiClient;
        this.lock = new LeaseLock(apiClient, settings.namespace(), settings.memberLeaseName());
        this.time = builder.time;
        this.leaseRelease = new LeaseRelease(lock, settings.identity(), time, settings.retryPeriod());
        this.threadFactory = builder.threadFactory;
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
        participants.add(participant);
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
        synchronized (monitor) {
            monitor.notifyAll();
        }
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
                Duration next = step();
                synchronized (monitor) {
                    // a drain that completes ends the wait: its adoption is written at once
                    time.await(monitor, next, () -> closed || drained());
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
     * One round: read the group's Leases, widen or start a hand-over, record a finished drain, renew our Lease.
     * Returns how long to wait before the next round: a retry period, a quarter of it while this replica adopted an
     * epoch that not every live member has.
     */
    Duration step() {
        Instant now = now();
        if (!lost && renewedAt != null && !now.isBefore(deadline())) {
            lose();
        }
        boolean read = read(now);
        if (read && !lost) {
            SlotAssignment next = SlotAssignment.of(liveIdentities(now));
            if (target == null || next.epoch() != target.epoch()) {
                beginHandOver(next, now);
            } else if (target.epochHex().equals(writtenAdoption()) && everyLiveAdopted(now)) {
                completeHandOver(now);
            }
        }
        CompletableFuture<Void> drain = draining;
        if (drain != null && drain.isDone()) {
            draining = null;
            try {
                drain.join();
                adopted = target.epochHex();
            } catch (CompletionException | CancellationException e) {
                log.error("sharding: a participant failed to narrow to {}; narrowing again", active, e);
                target = null; // the next round starts the hand-over over
            }
        }
        renew(now);
        publish();
        boolean waiting = !lost && target != null && target.epochHex().equals(writtenAdoption())
                && handOverSince != null;
        return waiting ? settings.retryPeriod().dividedBy(4) : settings.retryPeriod();
    }

    /** Lists the group's Leases and notes which changed since we last saw them; false when the list failed. */
    private boolean read(Instant now) {
        List<LeaseLock.Observed> leases;
        try {
            leases = LeaseLock.list(apiClient, settings.namespace(), GROUP_LABEL + "=" + settings.group(),
                    callLimit(now));
        } catch (ApiException e) {
            failed("cannot list the member Leases", e);
            return false;
        }
        Set<String> names = new HashSet<>();
        for (LeaseLock.Observed lease : leases) {
            String name = lease.lease().getMetadata().getName();
            if (name.equals(settings.memberLeaseName())) {
                continue;
            }
            names.add(name);
            Seen before = seen.get(name);
            String epoch = lease.annotation(ADOPTED_EPOCH);
            if (before == null || !before.record().equals(lease.record())
                    || !Objects.equals(before.adoptedEpoch(), epoch)) {
                seen.put(name, new Seen(lease.record(), epoch, now)); // it changed: its holder is alive, by our clock
            }
        }
        seen.keySet().retainAll(names);
        return true;
    }

    private Set<String> liveIdentities(Instant now) {
        Set<String> live = new HashSet<>();
        live.add(settings.identity());
        seen.values().stream().filter(member -> member.live(now)).forEach(member -> live.add(member.record().holder()));
        return live;
    }

    private boolean everyLiveAdopted(Instant now) {
        return seen.values().stream().filter(member -> member.live(now))
                .allMatch(member -> target.epochHex().equals(member.adoptedEpoch()));
    }

    /** A new epoch: the watchers list the new assignment, and what left is drained before we adopt it. */
    private void beginHandOver(SlotAssignment next, Instant now) {
        target = next;
        assigned = next.slotsOf(settings.identity());
        if (handOverSince == null) {
            handOverSince = now;
        }
        Slots kept = active.intersection(assigned);
        List<CompletableFuture<Void>> drains = new ArrayList<>();
        for (ShardParticipant participant : participants) {
            participant.assign(assigned);
            drains.add(participant.narrow(kept));
        }
        CompletableFuture<Void> drain = CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new));
        draining = drain;
        drain.whenComplete((done, failure) -> wake());
        log.info("sharding: epoch {}… computed; active {} → {} until all adopt; {} members", brief(next), active,
                kept, next.members().size());
        changeActive(kept);
    }

    /** Every live member adopted our epoch: reconcile all we are assigned. */
    private void completeHandOver(Instant now) {
        if (!active.equals(assigned)) {
            for (ShardParticipant participant : participants) {
                participant.widen(assigned);
            }
            log.info("sharding: epoch {}… adopted; active {} → {}; {} members", brief(target), active, assigned,
                    target.members().size());
            changeActive(assigned);
        }
        if (handOverSince != null) {
            handOvers++;
            lastHandOver = Duration.between(handOverSince, now);
            handOverSince = null;
        }
    }

    /** Creates or renews our Lease with the epoch we adopted; on a failure past the renew deadline, loses. */
    private void renew(Instant now) {
        OffsetDateTime stamp = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
        int durationSeconds = (int) settings.leaseDuration().getSeconds();
        Duration limit = callLimit(now);
        try {
            LeaseLock.Observed written = null;
            if (own != null) {
                try {
                    written = lock.update(own, metadata(own.lease().getMetadata()), next(own, stamp), limit);
                } catch (ApiException e) {
                    log.debug("sharding: renewing {} over the version we wrote failed ({}); reading it again",
                            settings.memberLeaseName(), LeaseLock.describe(e));
                }
            }
            if (written == null) {
                LeaseLock.Observed current = lock.get(limit);
                written = current == null
                        ? lock.create(metadata(new V1ObjectMeta()),
                                new LeaseRecord(settings.identity(), durationSeconds, stamp, stamp, 0), limit)
                        : lock.update(current, metadata(current.lease().getMetadata()), next(current, stamp), limit);
            }
            own = written;
            renewedAt = now;
            failing = false;
            if (written.annotation(ADOPTED_EPOCH) != null) {
                joined = true;
            }
            if (lost) {
                lost = false;
                log.info("sharding: {} renewed its member Lease {} again; it joins anew", settings.identity(),
                        settings.memberLeaseName());
            }
        } catch (ApiException e) {
            failed("cannot renew its member Lease " + settings.memberLeaseName(), e);
            if (!lost && renewedAt != null && !now().isBefore(deadline())) {
                lose();
            }
        }
    }

    private LeaseRecord next(LeaseLock.Observed current, OffsetDateTime stamp) {
        LeaseRecord record = current.record();
        boolean ours = settings.identity().equals(record.holder());
        return new LeaseRecord(settings.identity(), (int) settings.leaseDuration().getSeconds(),
                ours && record.acquireTime() != null ? record.acquireTime() : stamp, stamp,
                ours ? record.transitions() : record.transitions() + 1);
    }

    /** {@code metadata} with our group label and adopted epoch (other labels and annotations kept). */
    private V1ObjectMeta metadata(V1ObjectMeta metadata) {
        metadata.putLabelsItem(GROUP_LABEL, settings.group());
        Map<String, String> annotations = metadata.getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(metadata.getAnnotations());
        if (adopted == null) {
            annotations.remove(ADOPTED_EPOCH);
        } else {
            annotations.put(ADOPTED_EPOCH, adopted);
        }
        return metadata.annotations(annotations.isEmpty() ? null : annotations);
    }

    /**
     * Our Lease could not be renewed within the renew deadline: the others may count us expired once a lease
     * duration passed, so we stop reconciling anything now.
     */
    private void lose() {
        lost = true;
        joined = false;
        target = null;
        adopted = null;
        draining = null;
        handOverSince = null;
        log.warn("sharding: {} could not renew its member Lease {} within {} ms; it reconciles nothing until it "
                + "renews again", settings.identity(), settings.memberLeaseName(), settings.renewDeadline().toMillis());
        narrowToNothing();
    }

    /** Narrows every participant to no slot; the drain it returns completes when every one did. */
    private CompletableFuture<Void> narrowToNothing() {
        List<CompletableFuture<Void>> drains = new ArrayList<>();
        for (ShardParticipant participant : participants) {
            drains.add(participant.narrow(Slots.none()));
        }
        changeActive(Slots.none());
        return CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new));
    }

    private void shutDown() {
        synchronized (this) {
            if (shutDown) {
                return;
            }
            shutDown = true;
        }
        boolean drained = awaitDrain(narrowToNothing());
        if (own == null) {
            return; // never written: nothing to release
        }
        if (!drained) {
            log.warn("sharding: {} left its member Lease {} to expire: its participants did not drain within {} ms",
                    settings.identity(), settings.memberLeaseName(), settings.renewDeadline().toMillis());
            return;
        }
        LeaseRelease.Outcome outcome = leaseRelease.release(settings.renewDeadline());
        if (outcome instanceof LeaseRelease.Released released) {
            own = released.lease();
            log.info("sharding: {} released its member Lease {}", settings.identity(), settings.memberLeaseName());
        } else if (outcome instanceof LeaseRelease.Failed failed) {
            log.warn("sharding: {} could not release its member Lease {} after {} attempt(s) ({}); the others "
                    + "rebalance once it expires", settings.identity(), settings.memberLeaseName(), failed.attempts(),
                    failed.reason());
        } else {
            log.info("sharding: {} left its member Lease {} as it is: {}", settings.identity(),
                    settings.memberLeaseName(), outcome);
        }
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

    private void changeActive(Slots next) {
        Slots before = active;
        active = next;
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

    /** The epoch our Lease says we adopted, as last written. */
    private String writtenAdoption() {
        return own == null ? null : own.annotation(ADOPTED_EPOCH);
    }

    private boolean drained() {
        CompletableFuture<Void> drain = draining;
        return drain != null && drain.isDone();
    }

    private void wake() {
        synchronized (monitor) {
            monitor.notifyAll();
        }
    }

    /** When we lose, counted from the start of the last successful renewal. */
    private Instant deadline() {
        return renewedAt.plus(settings.renewDeadline());
    }

    /** Calls must end by the renew deadline; before the first renewal or while lost, a renew deadline each. */
    private Duration callLimit(Instant now) {
        if (renewedAt == null || lost) {
            return settings.renewDeadline();
        }
        Duration left = Duration.between(now, deadline());
        return left.isNegative() || left.isZero() ? Duration.ofMillis(1) : left;
    }

    private void publish() {
        List<ShardingSnapshot.Member> members = new ArrayList<>();
        members.add(new ShardingSnapshot.Member(settings.identity(), writtenAdoption(), !lost && renewedAt != null));
        Instant now = now();
        seen.values().stream().filter(member -> member.record().isHeld())
                .map(member -> new ShardingSnapshot.Member(member.record().holder(), member.adoptedEpoch(),
                        member.live(now)))
                .forEach(members::add);
        members.sort(Comparator.comparing(ShardingSnapshot.Member::identity));
        ShardingSnapshot.Phase phase = lost ? ShardingSnapshot.Phase.LOST
                : !joined ? ShardingSnapshot.Phase.JOINING
                : handOverSince != null ? ShardingSnapshot.Phase.HANDING_OVER : ShardingSnapshot.Phase.SETTLED;
        snapshot = new ShardingSnapshot(settings.identity(), settings.group(),
                target == null ? null : target.epochHex(), members, assigned.toString(), assigned.fraction(),
                active.toString(), active.fraction(), phase, handOverSince, handOvers, lastHandOver);
    }

    private Instant now() {
        return time.clock().instant();
    }

    /** The first 8 hex digits of an epoch, for log lines. */
    private static String brief(SlotAssignment assignment) {
        return assignment.epochHex().substring(0, 8);
    }

    /** Builds a {@link ShardCoordinator}; time and threads have defaults. */
    public static final class Builder {

        private final ApiClient apiClient;
        private final ShardingSettings settings;
        private TimeSource time = TimeSource.system();
        private ThreadFactory threadFactory = Builder::daemonThread;

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

        private static Thread daemonThread(Runnable body) {
            Thread thread = new Thread(body);
            thread.setDaemon(true);
            return thread;
        }
    }
}
