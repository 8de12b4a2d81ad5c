package dev.watchkeeper.autoconfigure.health;

import java.util.Set;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.health.actuate.endpoint.AdditionalHealthEndpointPath;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroup;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroupsPostProcessor;
import org.springframework.boot.health.actuate.endpoint.HttpCodeStatusMapper;
import org.springframework.boot.health.actuate.endpoint.StatusAggregator;

/**
 * Adds a health contributor to the {@code readiness} group (when the group exists: probes enabled, or on
 * Kubernetes), beside whatever the group already holds, so no {@code management.endpoint.health.group} property
 * is needed.
 */
public class ReadinessGroupContributor implements HealthEndpointGroupsPostProcessor {

    static final String READINESS = "readiness";

    private final String contributor;

    public ReadinessGroupContributor(String contributor) {
        this.contributor = contributor;
    }

    @Override
    public HealthEndpointGroups postProcessHealthEndpointGroups(HealthEndpointGroups groups) {
        HealthEndpointGroup readiness = groups.get(READINESS);
        if (readiness == null) {
            return groups;
        }
        return new HealthEndpointGroups() {
            @Override
            public HealthEndpointGroup getPrimary() {
                return groups.getPrimary();
            }

            @Override
            public Set<String> getNames() {
                return groups.getNames();
            }

            @Override
            public HealthEndpointGroup get(String name) {
                return READINESS.equals(name) ? new WithMember(readiness, contributor) : groups.get(name);
            }
        };
    }

    private record WithMember(HealthEndpointGroup group, String member) implements HealthEndpointGroup {

        @Override
        public boolean isMember(String name) {
            return member.equals(name) || group.isMember(name);
        }

        @Override
        public boolean showComponents(SecurityContext securityContext) {
            return group.showComponents(securityContext);
        }

        @Override
        public boolean showDetails(SecurityContext securityContext) {
            return group.showDetails(securityContext);
        }

        @Override
        public StatusAggregator getStatusAggregator() {
            return group.getStatusAggregator();
        }

        @Override
        public HttpCodeStatusMapper getHttpCodeStatusMapper() {
            return group.getHttpCodeStatusMapper();
        }

        @Override
        public AdditionalHealthEndpointPath getAdditionalPath() {
            return group.getAdditionalPath();
        }
    }
}
