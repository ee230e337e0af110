package dev.orderflow.ledger;

import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;

import jakarta.ws.rs.ConstrainedTo;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.RuntimeType;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;

import dev.orderflow.rest.problem.ProblemException;
import dev.orderflow.rest.problem.RequestText;

/**
 * Reads the id list a ledger POST takes ({@code List<String>}, the only such body of the services)
 * strictly, as the services read their other bodies: a JSON array of strings and nothing else. The
 * framework's JSON reader would read 7 as "7", accept trailing data and answer a body of another
 * shape without a problem body. Malformed JSON, trailing data or bytes that are not UTF-8 are a 400
 * naming {@code body}; another shape, or ids with control characters or lone surrogates, a 400 naming
 * {@code orderIds}. An empty body or {@code null} reads as null, which {@link LedgerRequests#orderIds}
 * refuses as it refuses an empty array. The size is bounded by the service's HTTP body limit.
 */
@Provider
@ConstrainedTo(RuntimeType.SERVER)
@Consumes(MediaType.APPLICATION_JSON)
public class OrderIdsReader implements MessageBodyReader<List<String>> {

    private static final ObjectReader IDS = idsReader();

    private static ObjectReader idsReader() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .build();
        // 7, 1.5 or true where an id belongs is no id: refused, not read as "7".
        for (CoercionInputShape scalar : new CoercionInputShape[] { CoercionInputShape.Integer, CoercionInputShape.Float,
                CoercionInputShape.Boolean }) {
            mapper.coercionConfigFor(LogicalType.Textual).setCoercion(scalar, CoercionAction.Fail);
        }
        return mapper.readerFor(new TypeReference<List<String>>() {
        });
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == List.class && genericType instanceof ParameterizedType list
                && list.getActualTypeArguments()[0] == String.class;
    }

    @Override
    public List<String> readFrom(Class<List<String>> type, Type genericType, Annotation[] annotations,
            MediaType mediaType, MultivaluedMap<String, String> httpHeaders, InputStream entityStream) throws IOException {
        return parse(entityStream.readAllBytes());
    }

    /** The ids of {@code body}, as {@link #readFrom} reads them. */
    static List<String> parse(byte[] body) {
        String text = RequestText.utf8(body);
        if (text.isBlank()) {
            return null;
        }
        List<String> ids;
        try {
            ids = IDS.readValue(text);
        } catch (JsonProcessingException e) {
            // Inside an array Jackson wraps a syntax error in a mapping error: look for it first.
            for (Throwable cause = e; cause != null; cause = cause.getCause()) {
                if (cause instanceof JsonParseException malformed) {
                    throw ProblemException.badRequest("body", "malformed JSON at line "
                            + malformed.getLocation().getLineNr() + ", column " + malformed.getLocation().getColumnNr()
                            + ": " + malformed.getOriginalMessage());
                }
            }
            throw String.valueOf(e.getMessage()).startsWith("Trailing token")
                    ? ProblemException.badRequest("body", "trailing data after the JSON array")
                    : ProblemException.badRequest("orderIds", "must be a JSON array of strings");
        }
        if (ids != null && ids.stream().anyMatch(id -> id != null
                && (RequestText.hasLoneSurrogate(id) || id.chars().anyMatch(Character::isISOControl)))) {
            throw ProblemException.badRequest("orderIds", "must not contain lone surrogates or control characters");
        }
        return ids;
    }
}
