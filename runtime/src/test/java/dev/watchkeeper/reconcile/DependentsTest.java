package dev.watchkeeper.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1DeploymentSpec;
import io.kubernetes.client.openapi.models.V1DeploymentStatus;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1JobCondition;
import io.kubernetes.client.openapi.models.V1JobStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order dependents run in, what a declaration refuses, and the built-in ready conditions. */
class DependentsTest {

    @Test
    void eachRunsAfterThoseItDependsOnOtherwiseInTheOrderDeclared() {
        Dependents<V1ConfigMap> dependents = Dependents.of(V1ConfigMap.class,
                dependent("service").dependsOn("deployment"), dependent("deployment").dependsOn("config"),
                dependent("secret"), dependent("config"));

        assertThat(dependents.ordered()).extracting(Dependent::name)
                .containsExactly("config", "deployment", "service", "secret");
    }

    @Test
    void aDeclarationThatCannotRunIsRefusedSayingWhy() {
        assertThatThrownBy(() -> Dependents.of(V1ConfigMap.class, dependent("a"), dependent("a")))
                .hasMessage("two dependents are named a");
        assertThatThrownBy(() -> Dependents.of(V1ConfigMap.class, dependent("a").dependsOn("b")))
                .hasMessage("dependent a depends on b, which is not declared; declared: [a]");
        assertThatThrownBy(() -> Dependents.of(V1ConfigMap.class, dependent("a").dependsOn("b"),
                dependent("b").dependsOn("c"), dependent("c").dependsOn("a")))
                .hasMessage("the dependents depend on each other in a cycle: a -> b -> c -> a");
        assertThatThrownBy(() -> dependent("Not A Label"))
                .hasMessageStartingWith("a dependent's name is a label value");
    }

    @Test
    void anInactiveDependentDesiresNothing() {
        Dependent<V1ConfigMap, V1ConfigMap> copy = dependent("copy")
                .activeWhen(primary -> "yes".equals(primary.getData().get("copy")));

        assertThat(copy.desired(new V1ConfigMap().metadata(new V1ObjectMeta().name("p")).putDataItem("copy", "no"),
                null)).isEmpty();
        assertThat(copy.desired(new V1ConfigMap().metadata(new V1ObjectMeta().name("p")).putDataItem("copy", "yes"),
                null)).hasSize(1);
    }

    @Test
    void aDeploymentIsAvailableOnceItsLatestSpecIsRolledOutToEveryReplica() {
        V1Deployment deployment = new V1Deployment().metadata(new V1ObjectMeta().generation(2L))
                .spec(new V1DeploymentSpec().replicas(2));

        assertThat(Dependent.deploymentAvailable().test(deployment)).as("no status yet").isFalse();
        deployment.status(new V1DeploymentStatus().observedGeneration(1L).updatedReplicas(2).availableReplicas(2));
        assertThat(Dependent.deploymentAvailable().test(deployment)).as("an older generation").isFalse();
        deployment.status(new V1DeploymentStatus().observedGeneration(2L).updatedReplicas(2).availableReplicas(1));
        assertThat(Dependent.deploymentAvailable().test(deployment)).as("one replica not available").isFalse();
        deployment.status(new V1DeploymentStatus().observedGeneration(2L).updatedReplicas(2).availableReplicas(2));
        assertThat(Dependent.deploymentAvailable().test(deployment)).isTrue();
    }

    @Test
    void aJobIsCompleteWithItsCompleteCondition() {
        V1Job job = new V1Job().status(new V1JobStatus().conditions(List.of(
                new V1JobCondition().type("Complete").status("False"))));
        assertThat(Dependent.jobComplete().test(job)).isFalse();
        job.getStatus().getConditions().get(0).status("True");
        assertThat(Dependent.jobComplete().test(job)).isTrue();
    }

    private static Dependent<V1ConfigMap, V1ConfigMap> dependent(String name) {
        return Dependent.of(name, V1ConfigMap.class,
                (V1ConfigMap primary, ReconcileContext context) -> new V1ConfigMap()
                        .metadata(new V1ObjectMeta().name(primary.getMetadata().getName() + "-" + name)));
    }
}
