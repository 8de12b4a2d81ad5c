package dev.watchkeeper.watch;

import dev.watchkeeper.settings.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;
import org.springframework.util.unit.DataSize;

/**
 * How a watcher lists and watches.
 *
 * @param pageSize           list page size ({@code limit}); default 500
 * @param timeout            server-side watch timeout ({@code timeoutSeconds}); default 290 s
 * @param initialList        list-watch, streaming or auto; default list-watch
 * @param listSemantics      which lists list-watch sends: consistent reads, or client-go's from the watch cache;
 *                           default consistent
 * @param stripManagedFields drop {@code metadata.managedFields} before caching; default true
 * @param idleMargin         a watch silent for {@code timeout + idleMargin} is broken; default 5 s
 * @param autoFallbackAfter  in AUTO mode, fall back to list-watch when the initial events have not ended after
 *                           this long; default 10 s
 * @param maxEventSize       a watch line longer than this breaks the watch instead of being buffered; default 16 MB,
 *                           about ten times the largest object etcd accepts by default (1.5 MiB)
 */
public record WatchOptions(int pageSize, Duration timeout, InitialListStrategy initialList,
        ListSemantics listSemantics, boolean stripManagedFields, Duration idleMargin, Duration autoFallbackAfter,
        DataSize maxEventSize) {

    private static final DataSize MIN_EVENT_SIZE = DataSize.ofKilobytes(1);

    public WatchOptions {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(initialList, "initialList");
        Objects.requireNonNull(listSemantics, "listSemantics");
        Objects.requireNonNull(idleMargin, "idleMargin");
        Objects.requireNonNull(autoFallbackAfter, "autoFallbackAfter");
        Objects.requireNonNull(maxEventSize, "maxEventSize");
        if (pageSize < 1) {
            throw new InvalidSettingException("pageSize", pageSize, "must be at least 1");
        }
        if (timeout.getSeconds() < 1) {
            // sent in whole seconds: anything shorter would be timeoutSeconds=0, no timeout at all
            throw new InvalidSettingException("timeout", timeout, "must be at least 1s");
        }
        InvalidSettingException.requirePositive("autoFallbackAfter", autoFallbackAfter);
        if (maxEventSize.compareTo(MIN_EVENT_SIZE) < 0) {
            throw new InvalidSettingException("maxEventSize", maxEventSize, "must be at least 1KB");
        }
    }

    public static WatchOptions defaults() {
        return new WatchOptions(500, Duration.ofSeconds(290), InitialListStrategy.LIST_WATCH, ListSemantics.CONSISTENT,
                true, Duration.ofSeconds(5), Duration.ofSeconds(10), DataSize.ofMegabytes(16));
    }

    public WatchOptions withPageSize(int pageSize) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    public WatchOptions withTimeout(Duration timeout) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    public WatchOptions withInitialList(InitialListStrategy initialList) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    public WatchOptions withListSemantics(ListSemantics listSemantics) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    public WatchOptions withStripManagedFields(boolean strip) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, strip,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    public WatchOptions withIdleMargin(Duration idleMargin) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, maxEventSize);
    }

    public WatchOptions withAutoFallbackAfter(Duration after) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, after, maxEventSize);
    }

    public WatchOptions withMaxEventSize(DataSize size) {
        return new WatchOptions(pageSize, timeout, initialList, listSemantics, stripManagedFields,
                idleMargin, autoFallbackAfter, size);
    }
}
