package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.leader.LeaderElectionSnapshot;
import org.springframework.context.ApplicationEvent;

/**
 * Published when this replica starts or stops leading ({@code watchkeeper.leader-election.enabled=true}), on the
 * election thread, after the reconcilers have been started or stopped.
 *
 * <pre>{@code
 * @EventListener
 * void on(LeadershipEvent.Acquired event) { log.info("leading {}", event.snapshot().leaseName()); }
 * }</pre>
 */
public abstract sealed class LeadershipEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient LeaderElectionSnapshot snapshot;

    LeadershipEvent(Object source, LeaderElectionSnapshot snapshot) {
        super(source);
        this.snapshot = snapshot;
    }

    /** The elector's state when the event was published. */
    public LeaderElectionSnapshot snapshot() {
        return snapshot;
    }

    /** This replica holds the Lease and its reconcilers run. */
    public static final class Acquired extends LeadershipEvent {

        private static final long serialVersionUID = 1L;

        Acquired(Object source, LeaderElectionSnapshot snapshot) {
            super(source, snapshot);
        }
    }

    /** This replica no longer leads (lost the Lease, or stopping); its reconcilers have stopped. */
    public static final class Lost extends LeadershipEvent {

        private static final long serialVersionUID = 1L;

        Lost(Object source, LeaderElectionSnapshot snapshot) {
            super(source, snapshot);
        }
    }
}
