package dev.watchkeeper.internal.annotation;

import dev.watchkeeper.internal.resource.ResourceTypes;
import dev.watchkeeper.internal.webhook.AdmissionMethod;
import dev.watchkeeper.internal.webhook.DeclaredWebhook;
import dev.watchkeeper.internal.webhook.WebhookDefinition;
import dev.watchkeeper.internal.webhook.WebhookKind;
import dev.watchkeeper.internal.resource.ResourceType;
import dev.watchkeeper.webhook.AdmissionContext;
import dev.watchkeeper.webhook.AdmissionVerdict;
import dev.watchkeeper.webhook.FailurePolicy;
import dev.watchkeeper.webhook.MatchCondition;
import dev.watchkeeper.webhook.MutatingWebhook;
import dev.watchkeeper.webhook.Operation;
import dev.watchkeeper.webhook.ValidatingWebhook;
import io.kubernetes.client.common.KubernetesObject;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.env.Environment;
import org.springframework.util.ReflectionUtils;

/**
 * Finds {@link ValidatingWebhook @ValidatingWebhook} and {@link MutatingWebhook @MutatingWebhook} methods on beans,
 * checks their signatures (a wrong one fails start-up naming the method) and keeps each as a
 * {@link DeclaredWebhook} for the webhook server. Declare it as a {@code static @Bean}.
 */
public class WebhookAnnotationBeanPostProcessor implements BeanPostProcessor, EnvironmentAware {

    private static final String DEFAULT_DOMAIN = ".watchkeeper.dev";

    private final List<DeclaredWebhook> webhooks = new CopyOnWriteArrayList<>();
    private Environment environment;

    @Override
    public void setEnvironment(Environment environment) {
        this.environment = environment;
    }

    /** Every webhook found so far, in the order beans were initialised. */
    public List<DeclaredWebhook> webhooks() {
        return List.copyOf(webhooks);
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
        Class<?> target = AopUtils.getTargetClass(bean);
        AnnotatedMethods.find(target, ValidatingWebhook.class).forEach((method, annotation) -> add(bean, beanName,
                method, ValidatingWebhook.class, new Declared(WebhookKind.VALIDATING, annotation.type(),
                        annotation.operations(), annotation.name(), annotation.failurePolicy(),
                        annotation.timeoutSeconds(), annotation.matchConditions())));
        AnnotatedMethods.find(target, MutatingWebhook.class).forEach((method, annotation) -> add(bean, beanName,
                method, MutatingWebhook.class, new Declared(WebhookKind.MUTATING, annotation.type(),
                        annotation.operations(), annotation.name(), annotation.failurePolicy(),
                        annotation.timeoutSeconds(), annotation.matchConditions())));
        return bean;
    }

    /** What the two annotations have in common. */
    private record Declared(WebhookKind kind, Class<? extends KubernetesObject> type, Operation[] operations,
            String name, FailurePolicy failurePolicy, int timeoutSeconds, MatchCondition[] conditions) {
    }

    private void add(Object bean, String beanName, Method method, Class<? extends Annotation> annotation,
            Declared declared) {
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        WebhookDefinition definition;
        try {
            ResourceType<?> type = ResourceTypes.resolve(declared.type());
            Map<String, String> conditions = new LinkedHashMap<>();
            for (MatchCondition condition : declared.conditions()) {
                conditions.put(condition.name(),
                        AnnotatedMethods.resolve(environment::resolvePlaceholders, condition.expression()));
            }
            String name = declared.name().isEmpty() ? defaultName(beanName, method)
                    : AnnotatedMethods.resolve(environment::resolvePlaceholders, declared.name());
            definition = new WebhookDefinition(name, declared.kind(), type, Arrays.asList(declared.operations()),
                    declared.failurePolicy(), declared.timeoutSeconds(), conditions);
        } catch (IllegalArgumentException e) {
            throw AnnotatedMethods.invalid(annotation, beanName, method, e.getMessage());
        }
        for (DeclaredWebhook other : webhooks) {
            if (other.definition().name().equals(definition.name())) {
                throw AnnotatedMethods.invalid(annotation, beanName, method, "another webhook is named '"
                        + definition.name() + "' already; give one a name of its own");
            }
        }
        AdmissionMethod call = adapt(bean, beanName, invocable, annotation, declared);
        webhooks.add(new DeclaredWebhook(definition, call));
    }

    /** Maps the method's parameters to the object, the old object and the context, and checks its return type. */
    private static AdmissionMethod adapt(Object bean, String beanName, Method method,
            Class<? extends Annotation> annotation, Declared declared) {
        Class<?> type = declared.type();
        int objectIndex = -1;
        int oldIndex = -1;
        int contextIndex = -1;
        Class<?>[] parameters = method.getParameterTypes();
        for (int i = 0; i < parameters.length; i++) {
            if (parameters[i] == AdmissionContext.class && contextIndex < 0) {
                contextIndex = i;
            } else if (parameters[i].isAssignableFrom(type) && objectIndex < 0) {
                objectIndex = i;
            } else if (parameters[i].isAssignableFrom(type) && oldIndex < 0) {
                oldIndex = i;
            } else {
                throw AnnotatedMethods.invalid(annotation, beanName, method, "its parameters must be the object ("
                        + type.getSimpleName() + "), optionally the old object (" + type.getSimpleName()
                        + ") and an AdmissionContext, but parameter " + (i + 1) + " is a "
                        + parameters[i].getSimpleName());
            }
        }
        if (objectIndex < 0) {
            throw AnnotatedMethods.invalid(annotation, beanName, method, "it must take the object, a "
                    + type.getSimpleName());
        }
        Class<?> returned = method.getReturnType();
        boolean validating = declared.kind() == WebhookKind.VALIDATING;
        if (validating && returned != void.class && returned != AdmissionVerdict.class) {
            throw AnnotatedMethods.invalid(annotation, beanName, method, "it must return an AdmissionVerdict or"
                    + " void, not " + returned.getSimpleName());
        }
        if (!validating && returned != void.class && !returned.isAssignableFrom(type)
                && !type.isAssignableFrom(returned)) {
            throw AnnotatedMethods.invalid(annotation, beanName, method, "it must return the changed "
                    + type.getSimpleName() + " or void, not " + returned.getSimpleName());
        }
        ReflectionUtils.makeAccessible(method);
        int object = objectIndex;
        int old = oldIndex;
        int context = contextIndex;
        return (value, oldValue, request) -> {
            Object[] arguments = new Object[parameters.length];
            arguments[object] = value;
            if (old >= 0) {
                arguments[old] = oldValue;
            }
            if (context >= 0) {
                arguments[context] = request;
            }
            return AnnotatedMethods.invoke(bean, method, arguments);
        };
    }

    /** {@code <bean>-<method>.watchkeeper.dev}, camel case as hyphens: {@code widget-checks-no-big.watchkeeper.dev}. */
    private static String defaultName(String beanName, Method method) {
        String words = (beanName + "-" + method.getName()).replaceAll("([a-z0-9])([A-Z])", "$1-$2")
                .toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        return words + DEFAULT_DOMAIN;
    }
}
