package dev.watchkeeper.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The Watchkeeper sample: a {@code ConfigMapGenerator} controller. By default it runs on an embedded in-memory API
 * server with a demo timeline (missing CRD, outage, recovery); with {@code --spring.profiles.active=cluster} it
 * uses the kubeconfig or in-cluster service account instead.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
