package dev.orderflow.reference;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring Boot reference the benchmark compares against: one application, five roles. Start it with
 * {@code --spring.profiles.active=order|inventory|sms|points|status}; each profile turns on only
 * its own controllers and listeners. All roles share one MariaDB database.
 */
@SpringBootApplication
public class ReferenceApplication {

    public static void main(String[] args) {
        SpringApplication.run(ReferenceApplication.class, args);
    }
}
