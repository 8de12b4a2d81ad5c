package dev.watchkeeper.internal.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.watchkeeper.internal.leader.LeaderElector.Attempt;
import dev.watchkeeper.test.VirtualTime;
import dev.watchkeeper.test.apiserver.InMemoryApiServer;
import dev.watchkeeper.test.apiserver.ServedRequest;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The elector against the in-memory API server, on virtual time: single attempts driven by hand pin the rules
 * (client-go's {@code tryAcquireOrRenew}); the loop is run where timing matters, with a horizon so that only one
 * elector's thread moves the clock at a time.
 */
class LeaderElectorTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration LIMIT = Duration.ofSeconds(5);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final InMemoryApiServer server = new InMemoryApiServer().start();
    private final List<LeaderElector> electors = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        electors.forEach(LeaderElector::close);
        server.close();
    }

    @Test
    void aMissingLeaseIsCreatedWithUsAsHolder() {
        LeaderElector a = elector("a", new VirtualTime());

        assertThat(a.attempt(LIMIT)).isEqualTo(Attempt.HOLDING);

        V1Lease lease = lease();
        assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("a");
        assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(15);
        assertThat(lease.getSpec().getLeaseTransitions()).isZero();
        assertThat(lease.getSpec().getRenewTime().toInstant()).isEqualTo(VirtualTime.DEFAULT_START);
    }

    @Test
    void aHeldLeaseIsTakenOnlyOnceItsRecordStayedUnchangedForTheLeaseDurationOfOurClock() {
        VirtualTime time = new VirtualTime();
        LeaderElector a = elector("a", time);
        LeaderElector b = elector("b", time);
        a.attempt(LIMIT);
        assertThat(b.attempt(LIMIT)).isEqualTo(Attempt.HELD_BY_OTHER);

        time.advance(Duration.ofMillis(14_999));
        assertThat(b.attempt(LIMIT)).isEqualTo(Attempt.HELD_BY_OTHER);
        time.advance(Duration.ofMillis(1));
        assertThat(b.attempt(LIMIT)).isEqualTo(Attempt.HOLDING);

        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
        assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);
        assertThat(b.snapshot().transitions()).isEqualTo(1);
        assertThat(a.attempt(LIMIT)).isEqualTo(Attempt.HELD_BY_OTHER);
    }

    @Test
    void aFollowerWhoseClockRuns30SecondsAheadDoesNotStealALeaseThatIsRenewed() {
        VirtualTime leaderTime = new VirtualTime();
        VirtualTime followerTime = new VirtualTime(VirtualTime.DEFAULT_START.plusSeconds(30));
        LeaderElector a = elector("a", leaderTime);
        LeaderElector b = elector("b", followerTime);
        a.attempt(LIMIT);

        for (int renewal = 0; renewal < 30; renewal++) { // a minute of renewals every 2 s
            leaderTime.advance(RETRY);
            followerTime.advance(RETRY);
            assertThat(a.attempt(LIMIT)).isEqualTo(Attempt.HOLDING);
            assertThat(b.attempt(LIMIT)).isEqualTo(Attempt.HELD_BY_OTHER);
        }
        // The leader stops renewing: 15 s of the follower's own clock after it last saw a change, it takes over.
        followerTime.advance(Duration.ofSeconds(14));
        assertThat(b.attempt(LIMIT)).isEqualTo(Attempt.HELD_BY_OTHER);
        followerTime.advance(Duration.ofSeconds(1));
        assertThat(b.attempt(LIMIT)).isEqualTo(Attempt.HOLDING);
    }

    @Test
    void aRenewalAnsweredWithConflictReadsTheLeaseAgainAndRetries() throws ApiException {
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ofSeconds(1));
        Recorder transitions = new Recorder(time);
        LeaderElector a = started("a", time, transitions, true);
        time.awaitPaused(WAIT);
        assertThat(a.isLeader()).isTrue();

        V1Lease lease = lease(); // someone else writes the Lease: the version a wrote last is stale
        lease.getMetadata().setAnnotations(Map.of("touched", "yes"));
        new CoordinationV1Api(server.apiClient()).replaceNamespacedLease("app-leader", "default", lease).execute();
        int before = server.requests("leases").size();
        runUntil(time, Duration.ofSeconds(3)); // the renewal at 2 s

        assertThat(server.requests("leases").subList(before, before + 3)).extracting(ServedRequest::method)
                .containsExactly("PUT", "GET", "PUT");
        assertThat(a.isLeader()).isTrue();
        assertThat(transitions.events).containsExactly("started");
        assertThat(lease().getMetadata().getAnnotations()).containsEntry("touched", "yes");
    }

    @Test
    void aLeaderThatCannotRenewStopsLeadingBeforeTheLeaseCouldBeTaken() {
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ofSeconds(1));
        Recorder transitions = new Recorder(time);
        started("a", time, transitions, true);
        time.awaitPaused(WAIT);
        Instant lastRenewal = transitions.at.get(0); // acquired at 0, the next renewal would be at 2 s

        server.outage(Duration.ofMinutes(5)); // every renewal is answered 503
        runUntil(time, Duration.ofSeconds(30));
        server.endOutage();

        assertThat(transitions.events).containsExactly("started", "stopped");
        Instant stoppedAt = transitions.at.get(1);
        LeaderElectionSettings settings = settings("a");
        assertThat(stoppedAt).isEqualTo(lastRenewal.plus(settings.renewDeadline()));
        // in-flight work gets lease duration − renew deadline: it ends before a follower could take the Lease
        assertThat(stoppedAt.plus(settings.lossGrace())).isBeforeOrEqualTo(lastRenewal.plus(settings.leaseDuration()));
    }

    /**
     * A hand-over the leader learns of from a 409: its clock stood still (a paused VM), so by the follower's own clock
     * the record went unrenewed for a lease duration and the follower took the Lease. The leader's next renewal,
     * written over the version it wrote last, is answered 409; it reads the Lease again, sees the other holder and
     * stops at that renewal, without retrying until its renew deadline.
     */
    @Test
    void aRenewalAnsweredConflictBecauseAnotherReplicaTookTheLeaseStopsTheLeaderAtThatRenewal() {
        VirtualTime leaderTime = new VirtualTime();
        VirtualTime followerTime = new VirtualTime();
        leaderTime.pauseAt(Duration.ofSeconds(1));
        followerTime.pauseAt(Duration.ofSeconds(1));
        Recorder leader = new Recorder(leaderTime);
        LeaderElector a = startedWithoutJitter("a", leaderTime, leader);
        leaderTime.awaitPaused(WAIT); // a holds the Lease since 0 s; its renewal at 2 s waits
        Recorder follower = new Recorder(followerTime);
        LeaderElector b = startedWithoutJitter("b", followerTime, follower);
        followerTime.awaitPaused(WAIT);
        assertThat(b.snapshot().holder()).isEqualTo("a");

        runUntil(followerTime, Duration.ofSeconds(17)); // b tries every 2 s: at 16 s the record is 16 s old to b
        assertThat(b.isLeader()).isTrue();
        assertThat(follower.at).containsExactly(VirtualTime.DEFAULT_START.plusSeconds(16));
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
        assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);
        assertThat(a.isLeader()).isTrue(); // it has not renewed since

        int before = server.requests("leases").size();
        runUntil(leaderTime, Duration.ofSeconds(3));

        assertThat(leader.events).containsExactly("started", "stopped");
        assertThat(leader.at).containsExactly(VirtualTime.DEFAULT_START, VirtualTime.DEFAULT_START.plus(RETRY));
        assertThat(leader.at.get(1)).isBefore(leader.at.get(0).plus(settings("a").renewDeadline()));
        // the optimistic renewal (409) and one read; then a waits a retry period, as a follower
        assertThat(server.requests("leases").subList(before, server.requests("leases").size()))
                .extracting(ServedRequest::method).containsExactly("PUT", "GET");
        assertThat(a.snapshot().role()).isEqualTo(LeaderElectionSnapshot.Role.FOLLOWER);
        assertThat(a.snapshot().holder()).isEqualTo("b");
        assertThat(b.isLeader()).isTrue();
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
    }

    @Test
    void releaseOnCancelLetsAFollowerTakeOverWithinOneJitteredRetryPeriod() {
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ofSeconds(1));
        LeaderElector a = started("a", time, new Recorder(time), true);
        time.awaitPaused(WAIT);
        Recorder follower = new Recorder(time);
        LeaderElector b = started("b", time, follower, true);
        await().atMost(WAIT).until(() -> "a".equals(b.snapshot().holder()));

        a.close();
        Instant releasedAt = time.now();
        assertThat(lease().getSpec().getHolderIdentity()).isNull();
        assertThat(lease().getSpec().getLeaseDurationSeconds()).isEqualTo(1);
        time.resume();
        await().atMost(WAIT).until(b::isLeader);

        Duration failover = Duration.between(releasedAt, follower.at.get(0));
        System.out.println("failover after release-on-cancel (virtual time): " + failover);
        assertThat(failover).isLessThanOrEqualTo(RETRY.multipliedBy(22).dividedBy(10));
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
        assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);
    }

    /**
     * Someone else writes the Lease after the leader's last renewal (an annotation), so the version the leader wrote
     * last is stale: the release reads the Lease first and writes over what it read, and the follower still takes
     * over within one jittered retry period instead of after the lease duration.
     */
    @Test
    void aLeaseWrittenBySomeoneElseSinceTheLastRenewalIsStillReleasedOnClose() throws ApiException {
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ofSeconds(1));
        LeaderElector a = started("a", time, new Recorder(time), true);
        time.awaitPaused(WAIT);
        Recorder follower = new Recorder(time);
        LeaderElector b = started("b", time, follower, true);
        await().atMost(WAIT).until(() -> "a".equals(b.snapshot().holder()) && time.isPaused());
        V1Lease lease = lease();
        lease.getMetadata().setAnnotations(Map.of("touched", "yes"));
        new CoordinationV1Api(server.apiClient()).replaceNamespacedLease("app-leader", "default", lease).execute();
        int before = server.requests("leases").size();

        a.close();
        Instant releasedAt = time.now();

        assertThat(server.requests("leases").subList(before, server.requests("leases").size()))
                .extracting(ServedRequest::method).containsExactly("GET", "PUT");
        assertThat(lease().getSpec().getHolderIdentity()).isNull();
        assertThat(lease().getSpec().getLeaseDurationSeconds()).isEqualTo(1);
        assertThat(lease().getMetadata().getAnnotations()).containsEntry("touched", "yes");
        assertThat(a.snapshot().holder()).isNull();
        time.resume();
        await().atMost(WAIT).until(b::isLeader);
        assertThat(Duration.between(releasedAt, follower.at.get(0)))
                .isLessThanOrEqualTo(RETRY.multipliedBy(22).dividedBy(10));
        assertThat(lease().getSpec().getLeaseTransitions()).isEqualTo(1);
    }

    /**
     * A leader whose clock stood still while another replica took the Lease closes: the release reads the Lease, sees
     * the other holder and writes nothing.
     */
    @Test
    void closingDoesNotClearALeaseAnotherReplicaTookMeanwhile() {
        VirtualTime leaderTime = new VirtualTime();
        VirtualTime followerTime = new VirtualTime();
        leaderTime.pauseAt(Duration.ofSeconds(1));
        followerTime.pauseAt(Duration.ofSeconds(1));
        LeaderElector a = startedWithoutJitter("a", leaderTime, new Recorder(leaderTime));
        leaderTime.awaitPaused(WAIT);
        LeaderElector b = startedWithoutJitter("b", followerTime, new Recorder(followerTime));
        followerTime.awaitPaused(WAIT);
        runUntil(followerTime, Duration.ofSeconds(17)); // b takes the Lease at 16 s by its clock
        assertThat(b.isLeader()).isTrue();
        assertThat(a.isLeader()).isTrue(); // it has not renewed since
        String version = lease().getMetadata().getResourceVersion();
        int before = server.requests("leases").size();

        a.close();

        assertThat(server.requests("leases").subList(before, server.requests("leases").size()))
                .extracting(ServedRequest::method).containsExactly("GET");
        assertThat(lease().getMetadata().getResourceVersion()).isEqualTo(version);
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("b");
        assertThat(a.snapshot().holder()).isEqualTo("b");
        assertThat(b.isLeader()).isTrue();
    }

    @Test
    void withoutReleaseAFollowerTakesOverWithinLeaseDurationPlusOneJitteredRetryPeriod() {
        VirtualTime time = new VirtualTime();
        time.pauseAt(Duration.ofSeconds(1));
        LeaderElector a = started("a", time, new Recorder(time), false);
        time.awaitPaused(WAIT);
        Recorder follower = new Recorder(time);
        LeaderElector b = started("b", time, follower, true);
        await().atMost(WAIT).until(() -> "a".equals(b.snapshot().holder()));

        a.close(); // as a crash: the Lease stays as a wrote it
        Instant stoppedAt = time.now();
        assertThat(lease().getSpec().getHolderIdentity()).isEqualTo("a");
        time.resume();
        await().atMost(WAIT).until(b::isLeader);

        Duration failover = Duration.between(stoppedAt, follower.at.get(0));
        System.out.println("failover without release (virtual time): " + failover);
        assertThat(failover).isGreaterThanOrEqualTo(Duration.ofSeconds(14))
                .isLessThanOrEqualTo(Duration.ofSeconds(15).plus(RETRY.multipliedBy(22).dividedBy(10)));
    }

    // ---- helpers

    /** Transitions heard by a listener, with the virtual time of each. */
    private static final class Recorder implements LeadershipListener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Instant> at = new CopyOnWriteArrayList<>();
        private final VirtualTime time;

        Recorder(VirtualTime time) {
            this.time = time;
        }

        @Override
        public void onStartedLeading() {
            at.add(time.now());
            events.add("started");
        }

        @Override
        public void onStoppedLeading() {
            at.add(time.now());
            events.add("stopped");
        }
    }

    private LeaderElectionSettings settings(String identity) {
        return LeaderElectionSettings.of("app-leader", "default", identity);
    }

    private LeaderElector elector(String identity, VirtualTime time) {
        LeaderElector elector = LeaderElector.builder(server.apiClient(), settings(identity)).timeSource(time).build();
        electors.add(elector);
        return elector;
    }

    private LeaderElector started(String identity, VirtualTime time, Recorder recorder, boolean release) {
        return started(LeaderElector.builder(server.apiClient(), settings(identity).withReleaseOnCancel(release))
                .timeSource(time), recorder);
    }

    /** A running elector whose follower retries come every retry period exactly (no jitter), for exact timestamps. */
    private LeaderElector startedWithoutJitter(String identity, VirtualTime time, Recorder recorder) {
        return started(LeaderElector.builder(server.apiClient(), settings(identity)).timeSource(time).random(() -> 0),
                recorder);
    }

    private LeaderElector started(LeaderElector.Builder builder, Recorder recorder) {
        LeaderElector elector = builder.build();
        elector.addListener(recorder);
        electors.add(elector);
        elector.start();
        return elector;
    }

    private V1Lease lease() {
        try {
            return new CoordinationV1Api(server.apiClient()).readNamespacedLease("app-leader", "default").execute();
        } catch (ApiException e) {
            throw new AssertionError("cannot read the Lease: HTTP " + e.getCode(), e);
        }
    }

    /** Moves the horizon to {@code sinceStart} and waits until a sleeper is parked there. */
    private static void runUntil(VirtualTime time, Duration sinceStart) {
        Instant horizon = VirtualTime.DEFAULT_START.plus(sinceStart);
        time.pauseAt(horizon);
        await().atMost(WAIT).until(() -> time.isPaused() && time.now().equals(horizon));
    }
}
