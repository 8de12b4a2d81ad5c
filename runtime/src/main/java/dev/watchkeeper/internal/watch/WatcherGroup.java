package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.WatchEventListener;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.internal.store.MergedStore;
import dev.watchkeeper.store.ObjectKey;
import dev.watchkeeper.store.Store;
import io.kubernetes.client.common.KubernetesObject;
import java.util.List;
import java.util.Objects;

/**
 * The watchers of one resource that a reconciler reads as one (docs/semantics.md §11): a single watcher, or one per
 * namespace of a set, each with its own backoff and state, behind one merged store. Events of every member reach
 * the group's listeners.
 *
 * <pre>{@code
 * WatcherGroup<V1ConfigMap> teams = new WatcherGroup<>("configmaps@team-a+team-b", List.of(teamA, teamB));
 * teams.store().get("team-b", "settings");
 * }</pre>
 */
public final class WatcherGroup<T extends KubernetesObject> {

    private final String name;
    private final List<Watcher<T>> members;
    private final Store<T> store;

    /**
     * @param name    the group's name (a single watcher's own name)
     * @param members watchers of one resource type
     */
    public WatcherGroup(String name, List<Watcher<T>> members) {
        this.name = Objects.requireNonNull(name, "name");
        this.members = List.copyOf(members);
        if (this.members.isEmpty()) {
            throw new IllegalArgumentException("watcher group " + name + " has no members");
        }
        ResourceType<T> type = this.members.get(0).type();
        if (this.members.stream().anyMatch(member -> !member.type().equals(type))) {
            throw new IllegalArgumentException("watcher group " + name + " mixes resources: " + this.members);
        }
        this.store = this.members.size() == 1 ? this.members.get(0).store()
                : new MergedStore<>(this.members.stream().map(Watcher::store).toList());
    }

    /** A single watcher, named as it is. */
    public static <T extends KubernetesObject> WatcherGroup<T> of(Watcher<T> watcher) {
        return new WatcherGroup<>(watcher.name(), List.of(watcher));
    }

    public String name() {
        return name;
    }

    public List<Watcher<T>> members() {
        return members;
    }

    public ResourceType<T> type() {
        return members.get(0).type();
    }

    /** The members' objects as one store; ready when every member's is. */
    public Store<T> store() {
        return store;
    }

    /** The resourceVersion a member's cache holds of {@code key}, read without decoding; {@code null} when none. */
    public String cachedVersion(ObjectKey key) {
        for (Watcher<T> member : members) {
            String version = member.cachedVersion(key);
            if (version != null) {
                return version;
            }
        }
        return null;
    }

    /** Adds {@code listener} to every member. */
    public void addListener(WatchEventListener<T> listener) {
        members.forEach(member -> member.addListener(listener));
    }

    @Override
    public String toString() {
        return name + members.stream().map(Watcher::name).toList();
    }
}
