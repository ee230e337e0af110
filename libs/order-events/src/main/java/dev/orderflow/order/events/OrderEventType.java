package dev.orderflow.order.events;

import com.fasterxml.jackson.annotation.JsonValue;

/** What happened to the order. The JSON value is also the message tag. */
public enum OrderEventType {
    CREATE("create"),
    CANCEL("cancel"),
    /**
     * The order failed for a business reason (a required consumer rejected its create, or an
     * operator abandoned it): every consumer undoes what the create did, once, and never before
     * the create. The event carries the {@link OrderFailure}.
     */
    FAIL("fail");

    private final String tag;

    OrderEventType(String tag) {
        this.tag = tag;
    }

    /** The lower-case name used in the JSON body, the message tag and the message key. */
    @JsonValue
    public String tag() {
        return tag;
    }

    /** The type for a tag, or null when the tag names no known type. */
    public static OrderEventType fromTag(String tag) {
        for (OrderEventType type : values()) {
            if (type.tag.equals(tag)) {
                return type;
            }
        }
        return null;
    }
}
