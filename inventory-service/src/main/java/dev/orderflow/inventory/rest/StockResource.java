package dev.orderflow.inventory.rest;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

import dev.orderflow.inventory.service.InventoryService;
import dev.orderflow.rest.problem.FieldError;
import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.security.Roles;
import io.quarkus.security.Authenticated;

/**
 * Stock per SKU. {@code PUT /stock/{sku}} {@code {"available":100000}} sets it (200 with the stock);
 * {@code GET /stock/{sku}} reads it (404 problem for an unknown SKU). Invalid input → 400
 * {@code application/problem+json} naming the field; nothing is written.
 */
@Path("/stock/{sku}")
@Produces(MediaType.APPLICATION_JSON)
public class StockResource {

    /** Same rule as a SKU in an order line may need: letters, digits, '.', '_', '-'; at most 64. */
    private static final Pattern SKU = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    /** Upper bound of a stock level; keeps sums far from overflow. */
    static final long MAX_AVAILABLE = 1_000_000_000_000L;

    private final InventoryService inventory;
    private final ObjectReader strictReader;

    @Inject
    public StockResource(InventoryService inventory, ObjectMapper objectMapper) {
        this.inventory = inventory;
        // Trailing data ({"available":1}}) and repeated keys ({"available":1,"available":2}) are not one
        // unambiguous JSON object: refuse them instead of reading the first value or the last key.
        this.strictReader = objectMapper.reader()
                .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    }

    /** Any authenticated caller may read a stock level. */
    @GET
    @Authenticated
    public StockView get(@PathParam("sku") String sku) {
        validSku(sku);
        return inventory.find(sku).map(StockView::of)
                .orElseThrow(() -> ProblemException.notFound("stock", "No stock for SKU " + sku));
    }

    /** Only an inventory manager sets stock levels. */
    @PUT
    @RolesAllowed(Roles.INVENTORY_MANAGER)
    @Consumes(MediaType.APPLICATION_JSON)
    public StockView put(@PathParam("sku") String sku, String body) {
        List<FieldError> errors = new ArrayList<>();
        if (!SKU.matcher(sku).matches()) {
            errors.add(new FieldError("sku", "must be 1-64 letters, digits, '.', '_' or '-'"));
        }
        long available = available(body, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
        return StockView.of(inventory.setAvailable(sku, available));
    }

    private static void validSku(String sku) {
        if (!SKU.matcher(sku).matches()) {
            throw ProblemException.badRequest("sku", "must be 1-64 letters, digits, '.', '_' or '-'");
        }
    }

    private long available(String body, List<FieldError> errors) {
        if (body == null || body.isBlank()) {
            errors.add(new FieldError("body", "is required: {\"available\": <units>}"));
            return -1;
        }
        JsonNode root;
        try {
            root = strictReader.readTree(body);
        } catch (MismatchedInputException e) {
            // Only trailing data ends here; Jackson's message would name its own classes.
            errors.add(new FieldError("body", "must be one JSON object, without trailing data"));
            return -1;
        } catch (JsonProcessingException e) {
            errors.add(new FieldError("body", "is not JSON: " + e.getOriginalMessage()));
            return -1;
        }
        if (root == null || !root.isObject()) {
            errors.add(new FieldError("body", "must be a JSON object"));
            return -1;
        }
        JsonNode available = root.get("available");
        if (available == null || available.isNull()) {
            errors.add(new FieldError("available", "is missing"));
        } else if (!available.isIntegralNumber() || !available.canConvertToLong()) {
            errors.add(new FieldError("available", "must be an integer"));
        } else if (available.longValue() < 0 || available.longValue() > MAX_AVAILABLE) {
            errors.add(new FieldError("available", "must be between 0 and " + MAX_AVAILABLE));
        } else {
            return available.longValue();
        }
        return -1;
    }
}
