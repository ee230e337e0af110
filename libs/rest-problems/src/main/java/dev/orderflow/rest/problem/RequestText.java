package dev.orderflow.rest.problem;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** What the services' strict body readers check of a request's text before they parse it. */
public final class RequestText {

    private RequestText() {
    }

    /** The body as text; bytes that are not UTF-8 are a 400 naming {@code body}. */
    public static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw ProblemException.badRequest("body", "is not valid UTF-8");
        }
    }

    /** Whether {@code value} holds a surrogate without its pair: no Unicode text, it cannot be stored as UTF-8. */
    public static boolean hasLoneSurrogate(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
