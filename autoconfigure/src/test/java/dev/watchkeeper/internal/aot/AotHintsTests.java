package dev.watchkeeper.internal.aot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.watchkeeper.annotation.KubernetesResource;
import dev.watchkeeper.annotation.Reconciler;
import dev.watchkeeper.annotation.WatchListener;
import dev.watchkeeper.autoconfigure.WatcherBeanRegistrar;
import dev.watchkeeper.autoconfigure.endpoint.WatcherDescriptor;
import dev.watchkeeper.autoconfigure.endpoint.WatchkeeperEndpoint;
import dev.watchkeeper.reconcile.ReconcileContext;
import dev.watchkeeper.reconcile.ReconcileResult;
import dev.watchkeeper.webhook.Convertible;
import dev.watchkeeper.webhook.StorageVersion;
import dev.watchkeeper.registry.WatcherDeclaration;
import dev.watchkeeper.watch.WatchEvent;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.openapi.models.V1Service;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.core.ResolvableType;
import org.springframework.javapoet.ClassName;

class AotHintsTests {

    @Test
    void staticHintsCoverClientJavasAdaptersTheStartersOwnModelsAndTheEndpointsRecords() {
        RuntimeHints hints = new RuntimeHints();

        new WatchkeeperRuntimeHints().registerHints(hints, getClass().getClassLoader());

        for (Class<?> adapter : JSON.class.getDeclaredClasses()) {
            assertThat(RuntimeHintsPredicates.reflection().onType(adapter)
                    .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).as(adapter.getName())
                    .accepts(hints);
        }
        assertThat(isModel(V1Lease.class, hints)).isTrue();
        assertThat(RuntimeHintsPredicates.reflection().onType(V1LeaseSpec.class)
                .withMemberCategory(MemberCategory.ACCESS_DECLARED_FIELDS)).as("a field's type").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(V1Lease.CustomTypeAdapterFactory.class)
                .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS)).accepts(hints);
        for (Class<?> record : new Class<?>[] {WatchkeeperEndpoint.WatchkeeperDescriptor.class,
                WatcherDescriptor.class, WatcherDescriptor.ErrorDescriptor.class}) {
            assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(record,
                    record.getRecordComponents()[0].getName())).as("Jackson reads %s", record.getName())
                    .accepts(hints);
        }
    }

    @Test
    void theProcessorFindsAnnotatedMethodsTheModelsTheyTakeOwnAndWatchAndThoseOfWatcherDeclarations() throws Exception {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("controller", new RootBeanDefinition(Controller.class));
        beanFactory.registerBeanDefinition("plain", new RootBeanDefinition(String.class));
        RootBeanDefinition declaration = new RootBeanDefinition(WatcherDeclaration.class);
        declaration.setTargetType(ResolvableType.forClassWithGenerics(WatcherDeclaration.class, V1Namespace.class));
        beanFactory.registerBeanDefinition("namespaces", declaration);

        RuntimeHints hints = apply(new AnnotatedMethodsAotProcessor().processAheadOfTime(beanFactory));

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                Controller.class.getDeclaredMethod("reconcile", V1ConfigMap.class, ReconcileContext.class)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                Controller.class.getDeclaredMethod("onPod", WatchEvent.class))).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
                Controller.class.getDeclaredMethod("unannotated", V1Service.class))).rejects(hints);
        for (Class<?> model : new Class<?>[] {V1ConfigMap.class, V1Secret.class, V1Pod.class, V1ObjectMeta.class,
                V1OwnerReference.class, V1Namespace.class}) {
            assertThat(isModel(model, hints)).as(model.getName()).isTrue();
        }
        assertThat(RuntimeHintsPredicates.reflection().onType(V1Service.class)).as("no annotated method takes it")
                .rejects(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Quantity.QuantityAdapter.class)
                .withMemberCategory(MemberCategory.INVOKE_DECLARED_CONSTRUCTORS))
                .as("a pod's resources hold Quantity, whose @JsonAdapter Gson instantiates").accepts(hints);
    }

    @Test
    void theOtherVersionsOfAReconciledHubAreModelsToo_theConversionWebhookReadsAndMakesThem() {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("dials", new RootBeanDefinition(DialController.class));

        RuntimeHints hints = apply(new AnnotatedMethodsAotProcessor().processAheadOfTime(beanFactory));

        assertThat(isModel(Dial.class, hints)).isTrue();
        assertThat(isModel(DialV1.class, hints)).isTrue();
    }

    static class DialController {

        @Reconciler
        void reconcile(Dial dial) {
        }
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v2", plural = "dials")
    @StorageVersion(otherVersions = DialV1.class)
    static class Dial extends V1ConfigMap {
    }

    @KubernetesResource(group = "test.watchkeeper.dev", version = "v1", plural = "dials", kind = "Dial")
    static class DialV1 extends V1ConfigMap implements Convertible<Dial> {

        @Override
        public Dial toHub() {
            return new Dial();
        }

        @Override
        public void fromHub(Dial hub) {
        }
    }

    @Test
    void aFactoryWithoutAnnotatedMethodsContributesNothing() {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        beanFactory.registerBeanDefinition("plain", new RootBeanDefinition(String.class));

        assertThat(new AnnotatedMethodsAotProcessor().processAheadOfTime(beanFactory)).isNull();
    }

    @Test
    void theRegistrarsWatcherAndStoreBeansAreLeftToRunTime() {
        DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
        for (String name : new String[] {WatcherBeanRegistrar.WATCHER_BEAN_PREFIX + "pods",
                WatcherBeanRegistrar.STORE_BEAN_PREFIX + "pods", "controller"}) {
            beanFactory.registerBeanDefinition(name, new RootBeanDefinition(Controller.class));
        }
        WatcherBeansExcludeFilter filter = new WatcherBeansExcludeFilter();

        assertThat(filter.isExcludedFromAotProcessing(RegisteredBean.of(beanFactory, "watchkeeper.watcher.pods")))
                .isTrue();
        assertThat(filter.isExcludedFromAotProcessing(RegisteredBean.of(beanFactory, "watchkeeper.store.pods")))
                .isTrue();
        assertThat(filter.isExcludedFromAotProcessing(RegisteredBean.of(beanFactory, "controller"))).isFalse();
    }

    private static RuntimeHints apply(BeanFactoryInitializationAotContribution contribution) {
        DefaultGenerationContext context = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(AotHintsTests.class)), new InMemoryGeneratedFiles());
        contribution.applyTo(context, null);
        return context.getRuntimeHints();
    }

    /** What Gson needs of a model: its fields, its constructor, its accessors. */
    private static boolean isModel(Class<?> type, RuntimeHints hints) {
        return RuntimeHintsPredicates.reflection().onType(type).withMemberCategories(
                MemberCategory.ACCESS_DECLARED_FIELDS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS,
                MemberCategory.INVOKE_PUBLIC_METHODS).test(hints);
    }

    static class Controller {

        @Reconciler(owns = V1Secret.class)
        ReconcileResult reconcile(V1ConfigMap configMap, ReconcileContext context) {
            return ReconcileResult.done();
        }

        @WatchListener("pods")
        void onPod(WatchEvent<V1Pod> event) {
        }

        void unannotated(V1Service service) {
        }
    }
}
