package dev.watchkeeper.internal.watch;

import dev.watchkeeper.internal.shard.Slots;
import dev.watchkeeper.watch.WatcherSnapshot.Shard.Mode;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the server applies a sharded watcher's {@code shardSelector} where a streaming list cannot say
 * (docs/sharding.md, "Visible"): asked with a list of one object with the selector, once for each share. A failed
 * question leaves the mode unknown and is asked again next time. Used by the watcher's thread only.
 */
final class FilterModeProbe {

    /** The watcher's logger: what the probe learns is the watcher's news. */
    private static final Logger log = LoggerFactory.getLogger(Watcher.class);

    /** The answer's {@code shardInfo.selector}, {@code null} when it has none. */
    @FunctionalInterface
    interface Question {
        String shardInfo() throws ApiFailure;
    }

    /** The slots whose mode was learnt; {@code null} until it was. */
    private Slots probed;
    private Mode mode = Mode.UNKNOWN;

    /** The mode for {@code slots}: asked through {@code question} unless learnt for them already. */
    Mode modeFor(Slots slots, Question question, Supplier<String> watched) {
        if (slots.equals(probed)) {
            return mode;
        }
        try {
            mode = question.shardInfo() != null ? Mode.SERVER : Mode.CLIENT;
            probed = slots;
            return mode;
        } catch (ApiFailure failure) {
            log.debug("could not learn whether the server filters {} by shard: {}", watched.get(),
                    failure.getMessage());
            return Mode.UNKNOWN;
        }
    }
}
