package dev.watchkeeper.examples.webpage;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The WebPage operator: {@code java -jar} with a kubeconfig, {@code --watchkeeper.crds.apply=true} to install the
 * WebPage CRD, and {@code --webpage.reconciler=managed} for the original's managed-workflow flavour.
 */
@SpringBootApplication
public class WebPageOperator {

    public static void main(String[] args) {
        SpringApplication.run(WebPageOperator.class, args);
    }
}
