package dev.watchkeeper.internal.watch;

import dev.watchkeeper.watch.ErrorKind;
import dev.watchkeeper.watch.WatchError;
import dev.watchkeeper.watch.WatchEvent;
import dev.watchkeeper.watch.WatcherSnapshot;
import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.internal.resource.ResolvedResource;
import dev.watchkeeper.store.CachedObject;
import dev.watchkeeper.internal.watch.WatchState.Empty;
import dev.watchkeeper.internal.watch.WatchState.Idle;
import dev.watchkeeper.internal.watch.WatchState.InitListed;
import dev.watchkeeper.internal.watch.WatchState.InitPage;
import dev.watchkeeper.internal.watch.WatchState.InitStream;
import dev.watchkeeper.internal.watch.WatchState.Watching;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The watcher's transition logic (docs/semantics.md §2–§5): {@link #step} takes a state, makes at most one API call or reads
 * at most one event through the {@link WatchApi}, and returns the events, the next state and whether to back off.
 * No threads and no sleeping: the driver ({@link Watcher}) owns those, so every transition is a unit test.
 *
 * <p>The machine remembers these facts across steps: the resolved resource (discovered once); whether the last
 * 410 came without any watch event since the one before — the progress guard that keeps immediate relists from
 * becoming a hot loop behind a misbehaving proxy; and the last synced resourceVersion (the list's, then each
 * event's or bookmark's), where a rewatch resumes and a {@link ListSemantics#CACHED} relist asks from. In
 * {@code CACHED} mode it also remembers whether that version was refused (the next list is then consistent) and
 * whether the server paged a list at any version. Whether a list streams, and the {@code AUTO} fallback to
 * list-watch, its {@link StreamingLists} decides. A sharded machine also holds its slots, sends their
 * {@code shardSelector} on every list page and watch (by object uid), and remembers whether the last list answer
 * said the server applied it.
 */
public final class WatchMachine<T> {

    /** A watch that ends sooner than this without an event is a failure, not a normal server timeout. */
    static final Duration SHORT_WATCH = Duration.ofSeconds(1);

    private final WatchApi<T> api;
    private final WatchOptions options;
    private final Clock clock;
    private final ShardFilter shardFilter;
    private final StreamingLists streamingLists;
    private ResolvedResource resource;
    private boolean goneWithoutProgress;
    private String syncedVersion;
    private boolean syncedVersionRefused;
    private boolean pagesCachedLists;
    private Slots slots;
    private String shardSelector;
    private final FilterModeProbe probe = new FilterModeProbe();
    private WatcherSnapshot.Shard.Mode listedMode = WatcherSnapshot.Shard.Mode.UNKNOWN;

    /** A machine that lists and watches the whole scope. */
    public WatchMachine(WatchApi<T> api, WatchOptions options, Clock clock) {
        this(api, options, clock, null);
    }

    /**
     * @param shardFilter how a sharded watcher places objects, or {@code null} for one that is not sharded; a
     *                    sharded machine is stepped only once {@link #reshard} gave it slots
     */
    public WatchMachine(WatchApi<T> api, WatchOptions options, Clock clock, ShardFilter shardFilter) {
        this.api = Objects.requireNonNull(api, "api");
        this.options = Objects.requireNonNull(options, "options");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.streamingLists = new StreamingLists(options, this.clock);
        this.shardFilter = shardFilter;
    }

    /**
     * The slots of a sharded machine from its next {@link Empty} state on: the driver steps from there, so the
     * relist's mark and sweep keeps what is still in the share and drops what left.
     */
    public void reshard(Slots slots) {
        if (shardFilter == null) {
            throw new IllegalStateException("the watcher is not sharded");
        }
        this.slots = Objects.requireNonNull(slots, "slots");
        this.shardSelector = shardFilter.selector(slots);
    }

    /** The slots of a sharded machine, or {@code null} before the first {@link #reshard} (or when not sharded). */
    public Slots slots() {
        return slots;
    }

    /**
     * Whether the server applied the shard selector, by the last list answer: {@code SERVER} when it carried
     * {@code metadata.shardInfo}, {@code CLIENT} when not (and always for a filter the server cannot apply), and
     * {@code UNKNOWN} before any list and for a streaming list, whose end bookmark carries no {@code shardInfo}.
     */
    public WatcherSnapshot.Shard.Mode listedMode() {
        return shardFilter == ShardFilter.BY_CONTROLLER_OWNER_UID ? WatcherSnapshot.Shard.Mode.CLIENT : listedMode;
    }

    /** Takes one step from {@code state}. Never throws for API or stream trouble: those become error events. */
    public Step<T> step(WatchState<T> state) {
        Step<T> step = next(state);
        if (step.next() instanceof InitListed<T> listed) {
            syncedVersion = listed.resourceVersion();
        } else if (step.next() instanceof Watching<T> watching && watching.resourceVersion() != null) {
            syncedVersion = watching.resourceVersion();
        }
        return step;
    }

    /** The last synced resourceVersion: the list's, then each event's or bookmark's; {@code null} before any. */
    public String syncedVersion() {
        return syncedVersion;
    }

    private Step<T> next(WatchState<T> state) {
        if (state instanceof Idle<T>) {
            return Step.proceed(List.of(), state);
        }
        if (state instanceof Empty<T> && shardFilter != null) {
            if (slots == null) {
                throw new IllegalStateException("a sharded watcher lists only once it was given slots");
            }
            if (slots.isEmpty()) {
                // No share: a list of nothing, without a request. Its InitDone sweeps the store empty.
                return Step.proceed(List.of(new WatchEvent.Init<>(), new WatchEvent.InitDone<>()), new Idle<>());
            }
        }
        if (state instanceof Empty<T>) {
            // Init first, without I/O, so listeners (the store) learn that a relist begins even if it then fails.
            WatchState<T> next = streamingLists.streams() ? new InitStream<>() : new InitPage<>(firstPage());
            return Step.proceed(List.of(new WatchEvent.Init<>()), next);
        }
        if (state instanceof InitPage<T> page) {
            return listPage(page.request());
        }
        if (state instanceof InitStream<T>) {
            return startStreamingList();
        }
        if (state instanceof InitListed<T> listed) {
            return startWatch(listed.resourceVersion());
        }
        return readEvent((Watching<T>) state);
    }

    /** The resource once discovery (or the declaration) resolved it, else {@code null}. */
    public ResolvedResource resolvedResource() {
        return resource;
    }

    /** Whether the next (re)list streams; false after an {@code AUTO} fallback. */
    public boolean isStreaming() {
        return streamingLists.streams();
    }

    /**
     * The first page of a (re)list. {@code CACHED}, as client-go's reflector: any version at first, then the last synced
     * one or newer, unpaged so that the watch cache serves it — unless the server paged a list at any version (it has
     * no watch cache for the resource, and an unpaged list would read everything from etcd at once) — and a
     * consistent list once the server refused that version, until a list succeeds.
     */
    private ListRequest firstPage() {
        if (options.listSemantics() == ListSemantics.CONSISTENT || syncedVersionRefused) {
            return ListRequest.consistent().withShardSelector(shardSelector);
        }
        return (syncedVersion == null ? ListRequest.anyVersion()
                : ListRequest.notOlderThan(syncedVersion, pagesCachedLists)).withShardSelector(shardSelector);
    }

    private Step<T> listPage(ListRequest request) {
        ListPage<T> page;
        try {
            page = api.list(resource(), request);
        } catch (ApiFailure failure) {
            WatchError error = error(ErrorKind.INITIAL_LIST_FAILED, failure);
            if (failure.code() == 410 && request.continueToken() != null) {
                // The continue token expired: only a fresh list from page 1 can succeed, so no reason to wait.
                return gone(error);
            }
            if (request.namesVersion() && (failure.code() == 410 || failure.resourceVersionTooLarge())) {
                // The server cannot list at that version (compacted, or not reached yet): a consistent list it can
                // always serve, so list that way at once; nothing of this list was delivered yet.
                syncedVersionRefused = true;
                return Step.proceed(List.of(new WatchEvent.Failure<>(error)),
                        new InitPage<>(ListRequest.consistent().withShardSelector(shardSelector)));
            }
            return Step.backOff(error, new Empty<>());
        }
        if (shardFilter != null) {
            listedMode = page.shardSelector() != null ? WatcherSnapshot.Shard.Mode.SERVER
                    : WatcherSnapshot.Shard.Mode.CLIENT;
        }
        List<WatchEvent<T>> events = new ArrayList<>(page.items().size() + 1);
        for (CachedObject<T> item : page.items()) {
            events.add(new WatchEvent.InitApply<>(item));
        }
        for (String undecodable : page.undecodable()) {
            events.add(failure(ErrorKind.DECODE_FAILED, 0, "skipped an object that cannot be decoded: " + undecodable));
        }
        if (!page.isLast() && page.continueToken().equals(request.continueToken())) {
            // Following the same token again would page for ever, without a failure to slow it down.
            WatchError error = new WatchError(ErrorKind.INITIAL_LIST_FAILED, 0, "the list of " + describe()
                    + " answered a continue token with the same token, so it would never end; relisting",
                    clock.instant());
            events.add(new WatchEvent.Failure<>(error));
            return new Step<>(events, new Empty<>(), Step.Outcome.BACK_OFF, error);
        }
        if (!page.isLast()) {
            if (ListRequest.ANY_VERSION.equals(request.resourceVersion())) {
                pagesCachedLists = true;
            }
            return Step.progress(events, new InitPage<>(request.next(page.continueToken())));
        }
        if (page.resourceVersion() == null || page.resourceVersion().isEmpty()) {
            WatchError error = new WatchError(ErrorKind.NO_RESOURCE_VERSION, 0,
                    "the list of " + describe() + " carried no resourceVersion, so no watch can start from it; relisting",
                    clock.instant());
            events.add(new WatchEvent.Failure<>(error));
            return new Step<>(events, new Empty<>(), Step.Outcome.BACK_OFF, error);
        }
        syncedVersionRefused = false;
        events.add(new WatchEvent.InitDone<>());
        return Step.progress(events, new InitListed<>(page.resourceVersion()));
    }

    private Step<T> startStreamingList() {
        WatchRequest request = streamingLists.request().withShardSelector(shardSelector);
        // The end of the initial events is a bookmark object, not a list: it never says whether the server filtered,
        // so a list of one object with the same selector asks, once for each share.
        if (shardSelector == null) {
            listedMode = WatcherSnapshot.Shard.Mode.UNKNOWN;
        } else {
            listedMode = probe.modeFor(slots, () -> api.shardInfo(resource(), shardSelector), this::describe);
        }
        try {
            return Step.proceed(List.of(), new Watching<>(null, api.watch(resource(), request), clock.instant(),
                    false, true));
        } catch (ApiFailure failure) {
            WatchError error = error(ErrorKind.WATCH_START_FAILED, failure);
            return failure.code() == 410 ? gone(error) : streamingLists.startFailed(failure, error);
        }
    }

    private Step<T> startWatch(String resourceVersion) {
        try {
            return Step.proceed(List.of(), new Watching<>(resourceVersion,
                    api.watch(resource(), WatchRequest.from(resourceVersion).withShardSelector(shardSelector)),
                    clock.instant(), false, false));
        } catch (ApiFailure failure) {
            WatchError error = error(ErrorKind.WATCH_START_FAILED, failure);
            if (failure.code() == 410) {
                // kube-rs retries the same stale version forever here; only a relist can get past a 410.
                return gone(error);
            }
            return Step.backOff(error, new InitListed<>(resourceVersion));
        }
    }

    private Step<T> readEvent(Watching<T> watching) {
        WireEvent<T> event;
        try {
            event = watching.stream().next();
        } catch (IOException broken) {
            watching.stream().close();
            if (streamingLists.overdue(watching)) {
                return streamingLists.fallBack(new WatchError(ErrorKind.WATCH_START_FAILED, 0,
                        "the streaming list of " + describe() + " sent no end of its initial events within "
                                + options.autoFallbackAfter().toSeconds() + "s; falling back to list-watch",
                        clock.instant()));
            }
            String reason = broken.getMessage() == null ? broken.getClass().getSimpleName() : broken.getMessage();
            WatchError error = new WatchError(ErrorKind.WATCH_FAILED, 0, "watch of " + describe() + " broke: " + reason,
                    clock.instant());
            return streamingLists.autoInitial(watching) ? streamingLists.failed(error)
                    : Step.backOff(error, resumeAfter(watching));
        }
        if (event == null) {
            return endOfStream(watching);
        }
        if (event instanceof WireEvent.Change<T> change) {
            goneWithoutProgress = false;
            WatchEvent<T> delivered = switch (change.type()) {
                case DELETED -> new WatchEvent.Delete<>(change.cached(), false);
                case ADDED, MODIFIED -> watching.initial()
                        ? new WatchEvent.InitApply<>(change.cached())
                        : new WatchEvent.Apply<>(change.cached());
            };
            return Step.progress(List.of(delivered), watching.advancedTo(change.resourceVersion(), watching.initial()));
        }
        if (event instanceof WireEvent.Bookmark<T> bookmark) {
            goneWithoutProgress = false;
            if (watching.initial() && bookmark.initialEventsEnd()) {
                streamingLists.completed();
                watching.stream().clearDeadline();
                return Step.progress(List.of(new WatchEvent.InitDone<>()),
                        watching.advancedTo(bookmark.resourceVersion(), false));
            }
            return Step.progress(List.of(), watching.advancedTo(bookmark.resourceVersion(), watching.initial()));
        }
        if (event instanceof WireEvent.ErrorStatus<T> status) {
            watching.stream().close();
            WatchError error = new WatchError(ErrorKind.WATCH_ERROR, status.code(), errorMessage(watching, status),
                    clock.instant());
            if (status.code() == 410) {
                return gone(error);
            }
            return status.code() >= 500 && streamingLists.autoInitial(watching)
                    ? streamingLists.failed(error)
                    : Step.backOff(error, resumeAfter(watching));
        }
        WireEvent.Undecodable<T> undecodable = (WireEvent.Undecodable<T>) event;
        // A poison object must never stall the watcher: report it, skip it, keep reading past its version.
        return Step.proceed(List.of(failure(ErrorKind.DECODE_FAILED, 0,
                "skipped an event of " + describe() + " that cannot be decoded: " + undecodable.description())),
                watching.advancedTo(undecodable.resourceVersion(), watching.initial()));
    }

    private String errorMessage(Watching<T> watching, WireEvent.ErrorStatus<T> status) {
        if (status.code() == 410) {
            return "resourceVersion " + watching.resourceVersion() + " of " + describe() + " is too old (410 "
                    + status.reason() + "); relisting";
        }
        if (status.code() == 0) {
            return "the watch of " + describe() + " sent an ERROR event without a Status code";
        }
        return "the watch of " + describe() + " sent an error " + status.code() + " " + status.reason() + ": "
                + status.message();
    }

    private Step<T> endOfStream(Watching<T> watching) {
        watching.stream().close();
        Duration lasted = elapsedSince(watching.startedAt());
        if (streamingLists.autoInitial(watching)) {
            // A proxy that cuts streaming responses short would have the streaming list start over for ever.
            return streamingLists.failed(new WatchError(ErrorKind.WATCH_FAILED, 0, "the streaming list of " + describe()
                    + " ended after " + lasted.toMillis() + "ms, before the end of its initial events",
                    clock.instant()));
        }
        if (!watching.progressed() && lasted.compareTo(SHORT_WATCH) < 0) {
            // client-go's "very short watch" guard: a server or proxy that ends every watch at once must not
            // turn the immediate rewatch into a hot loop.
            return Step.backOff(new WatchError(ErrorKind.WATCH_FAILED, 0,
                    "the watch of " + describe() + " ended after " + lasted.toMillis() + "ms without any event",
                    clock.instant()), resumeAfter(watching));
        }
        // A normal server-side timeout: resume from the last version, no relist and no wait.
        return Step.proceed(List.of(), resumeAfter(watching));
    }

    /** After a broken watch: resume from the last version, or restart a streaming list that had not finished. */
    private WatchState<T> resumeAfter(Watching<T> watching) {
        return watching.initial() || watching.resourceVersion() == null
                ? new Empty<>()
                : new InitListed<>(watching.resourceVersion());
    }

    /** A 410: relist at once, unless the previous 410 had no watch event since — then back off first. */
    private Step<T> gone(WatchError error) {
        if (goneWithoutProgress) {
            return Step.backOff(error, new Empty<>());
        }
        goneWithoutProgress = true;
        return Step.proceed(List.of(new WatchEvent.Failure<>(error)), new Empty<>());
    }

    private ResolvedResource resource() throws ApiFailure {
        if (resource == null) {
            resource = api.resolve();
        }
        return resource;
    }

    private String describe() {
        return resource == null ? "the resource" : resource.toString();
    }

    private Duration elapsedSince(Instant start) {
        return Duration.between(start, clock.instant());
    }

    private WatchError error(ErrorKind kind, ApiFailure failure) {
        return new WatchError(kind, failure.code(), failure.getMessage(), clock.instant(), failure.retryAfter());
    }

    private WatchEvent<T> failure(ErrorKind kind, int code, String message) {
        return new WatchEvent.Failure<>(new WatchError(kind, code, message, clock.instant()));
    }
}
