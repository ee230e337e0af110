package dev.orderflow.persistence;

import org.hibernate.boot.model.TypeContributions;
import org.hibernate.boot.model.TypeContributor;
import org.hibernate.service.ServiceRegistry;

/**
 * Puts {@link DateTimeJdbcType} in place of Hibernate's TIMESTAMP type in every persistence unit of
 * a service with this jar (a Hibernate type contributor, found through
 * {@code META-INF/services/org.hibernate.boot.model.TypeContributor}).
 */
public class DateTimeTypes implements TypeContributor {

    @Override
    public void contribute(TypeContributions contributions, ServiceRegistry services) {
        contributions.contributeJdbcType(new DateTimeJdbcType());
    }
}
