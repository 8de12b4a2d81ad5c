package dev.watchkeeper.test.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @SpringBootTest} against a scripted {@link dev.watchkeeper.test.stub.KubeApiStub}: the stub is a
 * bean (started with the context, closed with it) and a primary {@code ApiClient} bean points at it.
 *
 * <p>Watchers start when the context refreshes, before any test method runs, so the scripts their first calls
 * consume are written by {@link KubeApiStubCustomizer} beans, which run on the stub before it is handed to the
 * application (a bean, not a static hook, so a script can use other beans and several test configurations can
 * each add their part, in {@code @Order}):
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureKubeApiStub
 * class ForbiddenConfigMapsTest {
 *
 *     @TestConfiguration
 *     static class Script {
 *         @Bean
 *         KubeApiStubCustomizer configMapsForbidden() {
 *             return stub -> stub.on("/api/v1/namespaces/default/configmaps")
 *                     .list(Replies.forbidden("configmaps", "default"));
 *         }
 *     }
 *
 *     @Autowired KubeApiStub stub;
 *     ...
 * }
 * }</pre>
 *
 * <p>Later steps may still be appended from a test method ({@code stub.on(path).watch(...)}). The stub is not reset
 * between test methods: its scripts are consumed by the application's calls, as in production. Test classes with
 * equal configuration share a cached context, and so one stub; use {@code @DirtiesContext} where that matters.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface AutoConfigureKubeApiStub {
}
