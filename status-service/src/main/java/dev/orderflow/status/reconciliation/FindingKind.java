package dev.orderflow.status.reconciliation;

import com.fasterxml.jackson.annotation.JsonValue;

/** What reconciliation can find wrong between an order and a consumer's effect. */
public enum FindingKind {
    /** The order has no effect of this consumer (or its cancel was not reversed), though it should by now. */
    MISSING_EFFECT("missing-effect"),
    /** An effect whose order does not exist, or a reversal of an order that was not cancelled. */
    EFFECT_WITHOUT_ORDER("effect-without-order"),
    /** The same effect applied more than once. */
    DUPLICATE_EFFECT("duplicate-effect"),
    /** The effect exists once but with another quantity or amount than the order asks for. */
    WRONG_AMOUNT("wrong-amount");

    private final String label;

    FindingKind(String label) {
        this.label = label;
    }

    /** The name in the API and the {@code kind} label of {@code orderflow_reconciliation_findings}. */
    @JsonValue
    public String label() {
        return label;
    }
}
