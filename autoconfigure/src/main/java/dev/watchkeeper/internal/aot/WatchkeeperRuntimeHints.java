package dev.watchkeeper.internal.aot;

import dev.watchkeeper.autoconfigure.endpoint.BackoffDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.LeaderElectionDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.ReconcilerDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.ShardingDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatcherDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.resource.PartialObjectMetadata;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseList;
import io.kubernetes.client.openapi.models.V1Status;
import java.util.List;
import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.util.ClassUtils;

/**
 * What Watchkeeper reflects on whatever the application watches: the Gson adapters of client-java's {@link JSON},
 * the models of its own calls (Leases, Events, Status answers, discovery, metadata-only objects), and the
 * endpoint's descriptor records, which Jackson writes. The application's watched types and annotated methods are
 * {@link AnnotatedMethodsAotProcessor}'s.
 */
public final class WatchkeeperRuntimeHints implements RuntimeHintsRegistrar {

    /** Models the starter reads or writes itself. */
    static final List<Class<?>> OWN_MODELS = List.of(V1Lease.class, V1LeaseList.class, EventsV1Event.class,
            CoreV1Event.class, V1Status.class, V1APIResourceList.class, PartialObjectMetadata.class);

    private static final String ENDPOINT = "org.springframework.boot.actuate.endpoint.annotation.Endpoint";

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        for (Class<?> adapter : JSON.class.getDeclaredClasses()) {
            hints.reflection().registerType(adapter, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
        }
        OWN_MODELS.forEach(model -> ModelHints.register(hints, model));
        if (ClassUtils.isPresent(ENDPOINT, classLoader)) {
            new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(),
                    WatchkeeperEndpoint.WatchkeeperDescriptor.class, WatchkeeperEndpoint.RetryDescriptor.class,
                    WatcherDescriptor.class, ReconcilerDescriptor.class, BackoffDescriptor.class,
                    LeaderElectionDescriptor.class, ShardingDescriptor.class);
        }
    }
}
