package dev.orderflow.persistence;

import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Calendar;

import org.hibernate.type.descriptor.ValueBinder;
import org.hibernate.type.descriptor.ValueExtractor;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.type.descriptor.java.JavaType;
import org.hibernate.type.descriptor.jdbc.BasicBinder;
import org.hibernate.type.descriptor.jdbc.BasicExtractor;
import org.hibernate.type.descriptor.jdbc.TimestampJdbcType;

/**
 * Hibernate's TIMESTAMP type, bound and read as a {@link LocalDateTime} in the JDBC time zone
 * ({@code quarkus.hibernate-orm.jdbc.timezone}, UTC here) instead of as a {@link Timestamp} with a
 * calendar. The stored value is the same; the cost is not: MariaDB Connector/J renders a
 * {@code Timestamp} parameter through a new {@code SimpleDateFormat} each time, which made the time
 * columns the largest part of the services' Hibernate writes, while a {@code LocalDateTime} is a
 * plain format. Installed for every persistence unit by {@link DateTimeTypes}.
 */
public class DateTimeJdbcType extends TimestampJdbcType {

    @Override
    public <X> ValueBinder<X> getBinder(JavaType<X> javaType) {
        ValueBinder<X> standard = super.getBinder(javaType);
        return new BasicBinder<>(javaType, this) {
            @Override
            protected void doBind(PreparedStatement statement, X value, int index, WrapperOptions options)
                    throws SQLException {
                Timestamp timestamp = javaType.unwrap(value, Timestamp.class, options);
                ZoneId zone = value instanceof Calendar calendar ? calendar.getTimeZone().toZoneId() : zone(options);
                statement.setObject(index, LocalDateTime.ofInstant(timestamp.toInstant(), zone));
            }

            @Override
            protected void doBind(CallableStatement statement, X value, String name, WrapperOptions options)
                    throws SQLException {
                standard.bind(statement, value, name, options);
            }
        };
    }

    @Override
    public <X> ValueExtractor<X> getExtractor(JavaType<X> javaType) {
        ValueExtractor<X> standard = super.getExtractor(javaType);
        return new BasicExtractor<>(javaType, this) {
            @Override
            protected X doExtract(ResultSet row, int position, WrapperOptions options) throws SQLException {
                LocalDateTime value = row.getObject(position, LocalDateTime.class);
                return javaType.wrap(value == null ? null : Timestamp.from(value.atZone(zone(options)).toInstant()),
                        options);
            }

            @Override
            protected X doExtract(CallableStatement statement, int position, WrapperOptions options)
                    throws SQLException {
                return standard.extract(statement, position, options);
            }

            @Override
            protected X doExtract(CallableStatement statement, String name, WrapperOptions options)
                    throws SQLException {
                return standard.extract(statement, name, options);
            }
        };
    }

    private static ZoneId zone(WrapperOptions options) {
        return options.getJdbcTimeZone() == null ? ZoneId.systemDefault() : options.getJdbcTimeZone().toZoneId();
    }
}
