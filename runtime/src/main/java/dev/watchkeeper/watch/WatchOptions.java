package dev.watchkeeper.watch;

import dev.watchkeeper.settings.InvalidSettingException;
import java.time.Duration;
import java.util.Objects;

/**
 * How a watcher lists and watches.
 *
 * @param pageSize           list page size ({@code limit}); default 500
 * @param timeout            server-side watch timeout ({@code timeoutSeconds}); default 290 s
 * @param initialList        list-watch, streaming or auto; default list-watch
 * @param stripManagedFields drop {@code metadata.managedFields} before caching; default true
 * @param idleMargin         a watch silent for {@code timeout + idleMargin} is broken; default 5 s
 * @param autoFallbackAfter  in AUTO mode, fall back to list-watch when the initial events have not ended after
 *                           this long; default 10 s
 */
public record WatchOptions(int pageSize, Duration timeout, InitialListStrategy initialList,
        boolean stripManagedFields, Duration idleMargin, Duration autoFallbackAfter) {

    public WatchOptions {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(initialList, "initialList");
        Objects.requireNonNull(idleMargin, "idleMargin");
        Objects.requireNonNull(autoFallbackAfter, "autoFallbackAfter");
        if (pageSize < 1) {
            throw new InvalidSettingException("pageSize", pageSize, "must be at least 1");
        }
        if (timeout.getSeconds() < 1) {
            // sent in whole seconds: anything shorter would be timeoutSeconds=0, no timeout at all
            throw new InvalidSettingException("timeout", timeout, "must be at least 1s");
        }
        InvalidSettingException.requirePositive("autoFallbackAfter", autoFallbackAfter);
    }

    public static WatchOptions defaults() {
        return new WatchOptions(500, Duration.ofSeconds(290), InitialListStrategy.LIST_WATCH, true,
                Duration.ofSeconds(5), Duration.ofSeconds(10));
    }

    public WatchOptions withPageSize(int pageSize) {
        return new WatchOptions(pageSize, timeout, initialList, stripManagedFields, idleMargin, autoFallbackAfter);
    }

    public WatchOptions withTimeout(Duration timeout) {
        return new WatchOptions(pageSize, timeout, initialList, stripManagedFields, idleMargin, autoFallbackAfter);
    }

    public WatchOptions withInitialList(InitialListStrategy initialList) {
        return new WatchOptions(pageSize, timeout, initialList, stripManagedFields, idleMargin, autoFallbackAfter);
    }

    public WatchOptions withStripManagedFields(boolean strip) {
        return new WatchOptions(pageSize, timeout, initialList, strip, idleMargin, autoFallbackAfter);
    }

    public WatchOptions withIdleMargin(Duration idleMargin) {
        return new WatchOptions(pageSize, timeout, initialList, stripManagedFields, idleMargin, autoFallbackAfter);
    }

    public WatchOptions withAutoFallbackAfter(Duration after) {
        return new WatchOptions(pageSize, timeout, initialList, stripManagedFields, idleMargin, after);
    }
}
