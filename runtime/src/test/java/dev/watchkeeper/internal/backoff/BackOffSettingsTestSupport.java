package dev.watchkeeper.internal.backoff;


import java.time.Duration;

final class BackOffSettingsTestSupport {

    private BackOffSettingsTestSupport() {
    }

    static JitteredExponentialBackOffPolicy clientGoPolicy() {
        BackOffSettings s = BackOffSettings.clientGo();
        return new JitteredExponentialBackOffPolicy(s.initialInterval(), s.multiplier(), s.maxInterval(), s.jitter());
    }

    static Duration seconds(long s) {
        return Duration.ofSeconds(s);
    }
}
