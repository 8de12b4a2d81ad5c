package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.annotation.WebhookAnnotationBeanPostProcessor;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import io.kubernetes.client.openapi.ApiClient;
import java.time.Clock;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Admission webhooks from {@code @ValidatingWebhook} and {@code @MutatingWebhook} bean methods, and the conversion
 * webhook of the multi-version resources the application uses ({@code watchkeeper.webhooks.*}): the post-processor
 * that finds the methods and {@link WatchkeeperWebhooks}, which serves them over HTTPS on a port of their own (on
 * virtual threads when Boot's are on) when there is any.
 * {@code watchkeeper.webhooks.enabled=false} turns it off.
 */
@AutoConfiguration(after = WatchkeeperAutoConfiguration.class)
@ConditionalOnClass({ApiClient.class, WatchkeeperRegistry.class})
@ConditionalOnBooleanProperty(name = "watchkeeper.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "watchkeeper.webhooks.enabled", matchIfMissing = true)
@EnableConfigurationProperties(WebhookProperties.class)
public final class WatchkeeperWebhookAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    static WebhookAnnotationBeanPostProcessor webhookAnnotationBeanPostProcessor() {
        return new WebhookAnnotationBeanPostProcessor();
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ApiClient.class)
    WatchkeeperWebhooks watchkeeperWebhooks(ApiClient client, WebhookAnnotationBeanPostProcessor found,
            ConfigurableListableBeanFactory beans, WebhookProperties properties, Environment environment) {
        ThreadFactory threads = WatchkeeperThreads.of(environment);
        AtomicInteger count = new AtomicInteger();
        ThreadFactory webhookThreads = threads != null ? threads : body -> {
            Thread thread = DaemonThreads.newThread(body);
            thread.setName("watchkeeper-webhook-" + count.incrementAndGet());
            return thread;
        };
        return new WatchkeeperWebhooks(client, found, beans, properties, environment, webhookThreads, Clock.systemUTC());
    }
}
