package dev.watchkeeper.internal.registry;

import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.reconcile.Reconciler;
import dev.watchkeeper.internal.leader.LeadershipListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Reconcilers that work only while the replica holds the Lease: started suspended, resumed when it leads, and all
 * suspended at once when it stops leading, waiting for their reconciles within the elector's loss grace. The list is
 * read on the elector's thread, which must not wait for the registry's lock.
 */
final class LeaderOnlyReconcilers {

    private final LeaderElector elector;
    private final List<Reconciler<?>> reconcilers = new CopyOnWriteArrayList<>();

    LeaderOnlyReconcilers(LeaderElector elector) {
        this.elector = elector;
        elector.addListener(new LeadershipListener() {
            @Override
            public void onStartedLeading() {
                reconcilers.forEach(Reconciler::resume);
            }

            @Override
            public void onStoppedLeading() {
                // Suspend them all first, so their waits run at the same time and end before another replica can
                // hold the Lease.
                reconcilers.forEach(Reconciler::suspend);
                long deadline = System.nanoTime() + elector.settings().lossGrace().toNanos();
                reconcilers.forEach(reconciler ->
                        reconciler.awaitSuspended(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
            }
        });
    }

    /** Starts {@code reconciler} suspended, and resumes it at once if this replica leads. */
    void start(Reconciler<?> reconciler) {
        reconcilers.add(reconciler);
        reconciler.startSuspended();
        if (elector.isLeader()) {
            reconciler.resume();
        }
    }
}
