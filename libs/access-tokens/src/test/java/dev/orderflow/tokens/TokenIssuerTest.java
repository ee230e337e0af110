package dev.orderflow.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;

import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tokens verified the way a service verifies them: signature with the published key, issuer, audience, expiry. */
class TokenIssuerTest {

    @TempDir
    Path directory;

    @Test
    void aKeyDirectoryKeepsItsKeyAcrossStartsAndItsSigningKeyPrivate() throws Exception {
        TokenIssuer first = TokenIssuer.inDirectory(directory);
        TokenIssuer second = TokenIssuer.inDirectory(directory);

        assertThat(second.publicKey()).isEqualTo(first.publicKey());
        assertThat(Files.getPosixFilePermissions(directory.resolve(TokenIssuer.SIGNING_KEY_FILE)))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(Files.readString(directory.resolve(TokenIssuer.VERIFICATION_KEY_FILE))).startsWith("-----BEGIN PUBLIC KEY-----");
        JwtClaims claims = verify(second.customer("C-1"), first.publicKey());
        assertThat(claims.getSubject()).isEqualTo("C-1");
        assertThat(claims.getStringClaimValue(TokenIssuer.CUSTOMER_ID_CLAIM)).isEqualTo("C-1");
        assertThat(claims.getStringListClaimValue(TokenIssuer.ROLES_CLAIM)).containsExactly("customer");
    }

    @Test
    void anotherKeyOrAnExpiredTokenIsRefused() throws Exception {
        TokenIssuer local = TokenIssuer.inDirectory(directory);
        TokenIssuer test = TokenIssuer.forTests();
        assertThat(test.publicKey()).isNotEqualTo(local.publicKey());

        assertThatThrownBy(() -> verify(test.service("order-service"), local.publicKey()))
                .isInstanceOf(InvalidJwtException.class);
        String expired = test.token("vera", List.of("viewer"), null, java.time.Duration.ofMinutes(-5));
        assertThatThrownBy(() -> verify(expired, test.publicKey())).isInstanceOf(InvalidJwtException.class)
                .hasMessageContaining("no longer valid");
        assertThat(verify(test.user("anna", "operator", "approver"), test.publicKey())
                .getStringListClaimValue(TokenIssuer.ROLES_CLAIM)).containsExactly("operator", "approver");
    }

    static JwtClaims verify(String token, String publicKeyBase64) throws Exception {
        PublicKey key = KeyFactory.getInstance("RSA")
                .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(publicKeyBase64)));
        JwtConsumer consumer = new JwtConsumerBuilder().setVerificationKey(key).setExpectedIssuer(TokenIssuer.ISSUER)
                .setExpectedAudience(TokenIssuer.AUDIENCE).setRequireExpirationTime().setRequireSubject().build();
        return consumer.processToClaims(token);
    }
}
