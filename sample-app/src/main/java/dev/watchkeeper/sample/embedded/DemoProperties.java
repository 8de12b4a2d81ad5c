package dev.watchkeeper.sample.embedded;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The embedded mode's demo timeline ({@code sample.demo.*}), each time counted from start-up.
 *
 * @param enabled          run the timeline (tests turn it off)
 * @param installAt        when the CRD and two generators appear
 * @param editAt           when one generator's spec changes (replicas 2 → 3)
 * @param outageAt         when the API outage starts
 * @param outage           how long it lasts
 * @param shortOutageAt    when a second, short outage starts — after the reset timer (2 min quiet)
 * @param shortOutage      how long that one lasts
 */
@ConfigurationProperties("sample.demo")
public record DemoProperties(@DefaultValue("true") boolean enabled, @DefaultValue("20s") Duration installAt,
        @DefaultValue("40s") Duration editAt, @DefaultValue("60s") Duration outageAt,
        @DefaultValue("30s") Duration outage, @DefaultValue("240s") Duration shortOutageAt,
        @DefaultValue("5s") Duration shortOutage) {
}
