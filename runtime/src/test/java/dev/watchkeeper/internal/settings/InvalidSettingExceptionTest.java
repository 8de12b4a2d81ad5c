package dev.watchkeeper.internal.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.watchkeeper.internal.backoff.BackOffSettings;
import dev.watchkeeper.internal.reconcile.ReconcilerSettings;
import dev.watchkeeper.internal.watch.WatchOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The settings records name the refused field by its component name, so the Boot layer can name the property. */
class InvalidSettingExceptionTest {

    @Test
    void backOffSettingsNameTheRefusedField() {
        assertRefused(() -> new BackOffSettings(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(30), 1.0,
                Duration.ofMinutes(2), null), "multiplier", 0.5, "must be at least 1");
        assertRefused(() -> new BackOffSettings(Duration.ofSeconds(1), 2.0, Duration.ofMillis(10), 1.0,
                Duration.ofMinutes(2), null), "maxInterval", Duration.ofMillis(10),
                "must not be below the initial interval PT1S");
        assertRefused(() -> BackOffSettings.clientGo().withMaxElapsedTime(Duration.ofSeconds(-1)), "maxElapsedTime",
                Duration.ofSeconds(-1), "must not be negative");
    }

    @Test
    void watchOptionsNameTheRefusedField() {
        assertRefused(() -> WatchOptions.defaults().withPageSize(0), "pageSize", 0, "must be at least 1");
        assertRefused(() -> WatchOptions.defaults().withTimeout(Duration.ofMillis(500)), "timeout",
                Duration.ofMillis(500), "must be at least 1s");
        assertRefused(() -> WatchOptions.defaults().withAutoFallbackAfter(Duration.ZERO), "autoFallbackAfter",
                Duration.ZERO, "must be positive");
    }

    @Test
    void controllerSettingsNameTheRefusedField() {
        assertRefused(() -> ReconcilerSettings.defaults().withConcurrency(0), "concurrency", 0, "must be at least 1");
        assertRefused(() -> ReconcilerSettings.defaults().withResyncPeriod(Duration.ofHours(-1)), "resyncPeriod",
                Duration.ofHours(-1), "must not be negative");
    }

    @Test
    void theMessageSpellsTheFieldOut() {
        assertThatThrownBy(() -> WatchOptions.defaults().withAutoFallbackAfter(Duration.ZERO))
                .hasMessage("auto fallback after must be positive, was PT0S");
    }

    private static void assertRefused(Runnable settings, String field, Object value, String rule) {
        assertThatThrownBy(settings::run).isInstanceOfSatisfying(InvalidSettingException.class, e -> {
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.value()).isEqualTo(value);
            assertThat(e.rule()).isEqualTo(rule);
        });
    }
}
