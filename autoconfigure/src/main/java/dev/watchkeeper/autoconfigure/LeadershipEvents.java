package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.leader.LeaderElector;
import dev.watchkeeper.internal.leader.LeadershipListener;
import org.springframework.context.ApplicationEventPublisher;

/** Publishes an elector's transitions as {@link LeadershipEvent}s. */
final class LeadershipEvents implements LeadershipListener {

    private final LeaderElector elector;
    private final ApplicationEventPublisher events;

    LeadershipEvents(LeaderElector elector, ApplicationEventPublisher events) {
        this.elector = elector;
        this.events = events;
    }

    @Override
    public void onStartedLeading() {
        events.publishEvent(new LeadershipEvent.Acquired(elector, elector.snapshot()));
    }

    @Override
    public void onStoppedLeading() {
        events.publishEvent(new LeadershipEvent.Lost(elector, elector.snapshot()));
    }
}
