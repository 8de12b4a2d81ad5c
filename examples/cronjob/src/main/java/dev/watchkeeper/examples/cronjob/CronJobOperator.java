package dev.watchkeeper.examples.cronjob;

import java.time.Clock;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The CronJob operator: {@code java -jar} with a kubeconfig, {@code --watchkeeper.crds.apply=true} to install the
 * CronJob CRD. Its {@link Clock} bean is the time schedules are read against (the original's injectable clock).
 */
@SpringBootApplication
public class CronJobOperator {

    public static void main(String[] args) {
        SpringApplication.run(CronJobOperator.class, args);
    }

    @Bean
    Clock cronJobClock() {
        return Clock.systemUTC();
    }
}
