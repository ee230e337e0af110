package dev.orderflow.order.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** Writes {@link OrderEvent}s as the JSON every consumer expects; {@link OrderEventParser} reads them. */
public final class OrderEventJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .build();

    private OrderEventJson() {
    }

    /** The JSON body of a message carrying {@code event}. */
    public static String toJson(OrderEvent event) {
        try {
            return MAPPER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            // Records of strings, numbers and lists always serialize: this is a programming error.
            throw new IllegalStateException("Cannot serialize order event " + event.orderId(), e);
        }
    }

    static ObjectMapper mapper() {
        return MAPPER;
    }
}
