package dev.watchkeeper.autoconfigure;

import dev.watchkeeper.internal.annotation.WebhookAnnotationBeanPostProcessor;
import dev.watchkeeper.internal.api.ApiErrors;
import dev.watchkeeper.internal.concurrent.DaemonThreads;
import dev.watchkeeper.internal.registry.WatchkeeperRegistry;
import dev.watchkeeper.internal.webhook.CertificateSource;
import dev.watchkeeper.internal.webhook.CrdConversions;
import dev.watchkeeper.internal.webhook.DeclaredWebhook;
import dev.watchkeeper.internal.webhook.FileCertificates;
import dev.watchkeeper.internal.webhook.ResourceVersions;
import dev.watchkeeper.internal.webhook.SecretCertificates;
import dev.watchkeeper.internal.webhook.WebhookClientConfig;
import dev.watchkeeper.internal.webhook.WebhookConfigurations;
import dev.watchkeeper.internal.webhook.WebhookService;
import io.kubernetes.client.openapi.ApiClient;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

/**
 * The application's webhooks as a lifecycle: when the context starts, and only if some bean declares a webhook
 * method or a reconciler or webhook uses a resource with several versions ({@code @StorageVersion}), it gets the
 * certificate (from {@code certificate-dir}, else made and kept in {@code certificate-secret}), serves on
 * {@code watchkeeper.webhooks.port} and, with {@code register=true}, registers the webhooks and the CRDs'
 * conversion. It starts before the registry starts the reconcilers, whose writes the webhooks may have to admit,
 * and checks the certificate again every {@link #REFRESH_PERIOD}. With conversions only and no address the API
 * server could call (no {@code url}, {@code service.name} or {@code certificate-dir}), as with the in-memory test
 * server, it serves nothing and says so in a warning.
 */
public final class WatchkeeperWebhooks implements SmartLifecycle {

    /** How often the certificate is checked for a renewal or a change of its files. */
    static final Duration REFRESH_PERIOD = Duration.ofMinutes(1);
    private static final Logger log = LoggerFactory.getLogger(WatchkeeperWebhooks.class);

    private final ApiClient client;
    private final WebhookAnnotationBeanPostProcessor found;
    private final ConfigurableListableBeanFactory beans;
    private final WebhookProperties properties;
    private final Environment environment;
    private final ThreadFactory threads;
    private final Clock clock;
    private volatile WebhookService service;
    private ScheduledExecutorService refresher;
    private volatile boolean running;

    WatchkeeperWebhooks(ApiClient client, WebhookAnnotationBeanPostProcessor found,
            ConfigurableListableBeanFactory beans, WebhookProperties properties, Environment environment,
            ThreadFactory threads, Clock clock) {
        this.client = client;
        this.found = found;
        this.beans = beans;
        this.properties = properties;
        this.environment = environment;
        this.threads = threads;
        this.clock = clock;
    }

    /** The running webhooks; empty before start, and when the application declares none. */
    public Optional<WebhookService> service() {
        return Optional.ofNullable(service);
    }

    @Override
    public synchronized void start() {
        List<DeclaredWebhook> webhooks = found.webhooks();
        List<ResourceVersions> conversions = conversions(webhooks);
        if (webhooks.isEmpty() && conversions.isEmpty()) {
            running = true;
            return;
        }
        WebhookClientConfig clientConfig = clientConfig(properties);
        if (webhooks.isEmpty() && clientConfig == null && properties.certificateDir() == null
                && !properties.registers()) {
            log.warn("The CRDs {} have several versions, but no conversion webhook is served: set"
                    + " watchkeeper.webhooks.service.name or watchkeeper.webhooks.url (or certificate-dir). Until"
                    + " then the API server fails every request for a version it does not store.",
                    conversions.stream().map(ResourceVersions::crdName).toList());
            running = true;
            return;
        }
        if (clientConfig == null && (properties.registers() || properties.certificateDir() == null)) {
            throw WatchkeeperPropertyException.invalid("watchkeeper.webhooks.url", null, "is needed, or"
                    + " watchkeeper.webhooks.service.name: " + (properties.registers() ? "the webhooks are registered"
                    : "the starter makes the webhooks' certificate") + " for the address the API server calls");
        }
        String name = LeaderElectionDefaults.applicationName(environment);
        WebhookService started = new WebhookService(client, webhooks, conversions, certificates(clientConfig, name),
                properties.registers() ? new WebhookConfigurations(name, clientConfig) : null,
                properties.registers() ? new CrdConversions(clientConfig,
                        environment.getProperty("watchkeeper.crds.apply", Boolean.class, false)) : null,
                new InetSocketAddress(properties.address(), properties.port()), Executors.newCachedThreadPool(threads),
                clock);
        try {
            started.start();
        } catch (Exception e) {
            started.close();
            throw new IllegalStateException("cannot start the webhooks: " + ApiErrors.describe(e), e);
        }
        if (!properties.registers()) {
            log.info("watchkeeper.webhooks.register is off: the webhook configurations and the CRDs' conversion,"
                    + " applied by someone else, must call {} and trust the CA of {}",
                    clientConfig != null ? clientConfig : "this server", started.certificateSource());
        }
        service = started;
        running = true;
        refresher = Executors.newSingleThreadScheduledExecutor(DaemonThreads.factory());
        refresher.scheduleWithFixedDelay(this::refresh, REFRESH_PERIOD.toMillis(), REFRESH_PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            service.refresh();
        } catch (Exception e) { // the certificate being served stays; the next period tries again
            log.warn("could not check the webhooks' certificate from {}: {}", service.certificateSource(),
                    ApiErrors.describe(e), e);
        }
    }

    @Override
    public synchronized void stop() {
        running = false;
        if (refresher != null) {
            refresher.shutdownNow();
        }
        if (service != null) {
            service.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** Before the registry starts the reconcilers, after it stops them. */
    @Override
    public int getPhase() {
        return WatchkeeperRegistry.PHASE - 10;
    }

    /**
     * The multi-version resources the reconcilers and webhooks use, each once.
     *
     * @throws IllegalStateException when their classes do not make one resource, saying why
     */
    private List<ResourceVersions> conversions(List<DeclaredWebhook> webhooks) {
        Set<Class<?>> types = new LinkedHashSet<>(StartUpCustomResourceDefinitions.reconciledTypes(beans));
        webhooks.forEach(webhook -> types.add(webhook.definition().type().javaType()));
        Map<Class<?>, ResourceVersions> resources = new LinkedHashMap<>();
        for (Class<?> type : types) {
            try {
                ResourceVersions.of(type).ifPresent(versions -> resources.putIfAbsent(versions.hub(), versions));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("cannot convert the versions of " + type.getName() + ": "
                        + e.getMessage(), e);
            }
        }
        return List.copyOf(resources.values());
    }

    /** How the API server calls the webhook server, as the properties say; {@code null} when they do not. */
    static WebhookClientConfig clientConfig(WebhookProperties properties) {
        if (properties.url() != null) {
            return new WebhookClientConfig.Url(properties.url());
        }
        WebhookProperties.Service service = properties.service();
        return service.name() == null ? null
                : new WebhookClientConfig.Service(service.name(), namespace(properties), service.port());
    }

    private CertificateSource certificates(WebhookClientConfig clientConfig, String applicationName) {
        if (properties.certificateDir() != null) {
            return new FileCertificates(properties.certificateDir());
        }
        List<String> dnsNames = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        if (clientConfig instanceof WebhookClientConfig.Url url) {
            String host = URI.create(url.base()).getHost();
            (host.matches("[0-9.]+|\\[.*]") ? addresses : dnsNames).add(host.replaceAll("[\\[\\]]", ""));
        } else if (clientConfig instanceof WebhookClientConfig.Service service) {
            dnsNames.add(service.name() + "." + service.namespace() + ".svc");
            dnsNames.add(service.name() + "." + service.namespace() + ".svc.cluster.local");
        }
        String secret = properties.certificateSecret() != null ? properties.certificateSecret()
                : applicationName + "-webhook-certificate";
        return new SecretCertificates(client, namespace(properties), secret, dnsNames, addresses, clock);
    }

    /** The service's namespace, else the pod's, else {@code default}. */
    private static String namespace(WebhookProperties properties) {
        String namespace = properties.service().namespace();
        return namespace != null ? namespace
                : LeaderElectionDefaults.leaseNamespace(LeaderElectionDefaults.NAMESPACE_FILE);
    }
}
