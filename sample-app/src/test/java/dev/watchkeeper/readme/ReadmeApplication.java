package dev.watchkeeper.readme;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The application the docs' test snippets start: a plain {@code @SpringBootTest} in this package finds it, as an
 * adopter's finds their {@code @SpringBootApplication}. No component scan, so the other snippets' beans stay out.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import(ConfigMapReconciler.class)
class ReadmeApplication {
}
