package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.backoff.TimeSource;
import dev.watchkeeper.internal.resource.ResourceType;
import io.kubernetes.client.common.KubernetesObject;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import org.springframework.retry.RetryPolicy;
import org.springframework.retry.backoff.BackOffPolicy;
import org.springframework.retry.backoff.SleepingBackOffPolicy;

/** Builds a {@link Watcher}; everything but the transport and type has a default. */
public final class WatcherBuilder<T extends KubernetesObject> {

    final WatchApi.Factory<T> transport;
    final ResourceType<T> type;
    String name;
    WatchScope scope = WatchScope.allNamespaces();
    WatchOptions options = WatchOptions.defaults();
    BackOffSettings backOff = BackOffSettings.clientGo();
    BackOffPolicy backOffPolicy;
    RetryPolicy retryPolicy;
    TimeSource time = TimeSource.system();
    ThreadFactory threadFactory;
    ShardFilter shardFilter;

    WatcherBuilder(WatchApi.Factory<T> transport, ResourceType<T> type) {
        this.transport = transport;
        this.type = Objects.requireNonNull(type, "type");
    }

    /** The name in logs, state and metrics; default derived from resource, scope and selectors. */
    public WatcherBuilder<T> name(String name) {
        this.name = name;
        return this;
    }

    public WatcherBuilder<T> scope(WatchScope scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
        return this;
    }

    public WatcherBuilder<T> options(WatchOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        return this;
    }

    /** The backoff numbers; default client-go's. */
    public WatcherBuilder<T> backOff(BackOffSettings backOff) {
        this.backOff = Objects.requireNonNull(backOff, "backOff");
        return this;
    }

    /**
     * A backoff policy of your own instead of {@link #backOff(BackOffSettings)}'s; if it is a
     * {@link SleepingBackOffPolicy} its delays show in the snapshot, otherwise they show as unknown.
     */
    public WatcherBuilder<T> backOffPolicy(BackOffPolicy policy) {
        this.backOffPolicy = policy;
        return this;
    }

    /** A retry policy of your own instead of the max-elapsed-time one of {@link #backOff(BackOffSettings)}. */
    public WatcherBuilder<T> retryPolicy(RetryPolicy policy) {
        this.retryPolicy = policy;
        return this;
    }

    /** Clock and waiting; tests pass a virtual one. */
    public WatcherBuilder<T> timeSource(TimeSource time) {
        this.time = Objects.requireNonNull(time, "time");
        return this;
    }

    /** Where the watcher's thread comes from (virtual threads, say); default a new platform thread. */
    public WatcherBuilder<T> threadFactory(ThreadFactory threadFactory) {
        this.threadFactory = threadFactory;
        return this;
    }

    /**
     * Makes the watcher sharded: it holds only the objects {@code filter} places in the slots it is given by
     * {@link Watcher#reshard}, and nothing until the first. Default: not sharded.
     */
    public WatcherBuilder<T> shardFilter(ShardFilter filter) {
        this.shardFilter = filter;
        return this;
    }

    public Watcher<T> build() {
        return new Watcher<>(this);
    }
}
