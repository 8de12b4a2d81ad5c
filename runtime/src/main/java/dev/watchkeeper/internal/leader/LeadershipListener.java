package dev.watchkeeper.internal.leader;


/**
 * Hears the leader elector's transitions, on the elector's thread, in order. The elector waits for each call:
 * work guarded by the Lease must have stopped when {@link #onStoppedLeading} returns.
 */
public interface LeadershipListener {

    /** This replica holds the Lease now. */
    void onStartedLeading();

    /** This replica no longer leads (lost the Lease, or the elector is closing); stop the guarded work. */
    void onStoppedLeading();
}
