package dev.watchkeeper.internal.events;

import dev.watchkeeper.internal.leader.LeaderElectionSettings;
import dev.watchkeeper.internal.leader.LeadershipListener;

/**
 * Records leadership changes as Events on the Lease, worded as client-go's leader election records them: reason
 * {@code LeaderElection}, note {@code <identity> became leader} or {@code <identity> stopped leading}.
 *
 * <pre>{@code
 * elector.addListener(new LeaseEvents(recorder, elector.settings()));
 * }</pre>
 */
public final class LeaseEvents implements LeadershipListener {

    /** The {@link Reporter#controller component} leadership Events are reported by. */
    public static final String COMPONENT = "leader-election";

    private final EventRecorder recorder;
    private final Occurrence.Regarding lease;
    private final String identity;

    public LeaseEvents(EventRecorder recorder, LeaderElectionSettings settings) {
        this.recorder = recorder;
        this.lease = new Occurrence.Regarding("coordination.k8s.io/v1", "Lease", settings.leaseNamespace(),
                settings.leaseName(), null);
        this.identity = settings.identity();
    }

    @Override
    public void onStartedLeading() {
        recorder.record(lease, COMPONENT, "Normal", "LeaderElection", "BecameLeader", identity + " became leader");
    }

    @Override
    public void onStoppedLeading() {
        recorder.record(lease, COMPONENT, "Normal", "LeaderElection", "StoppedLeading",
                identity + " stopped leading");
    }
}
