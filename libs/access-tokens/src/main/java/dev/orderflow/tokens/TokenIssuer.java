package dev.orderflow.tokens;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

/**
 * Signs access tokens for the services: RS256 JWTs with issuer {@value #ISSUER}, audience
 * {@value #AUDIENCE}, the roles in {@value #ROLES_CLAIM} and, for a customer, its id in
 * {@value #CUSTOMER_ID_CLAIM}. A service trusts them when its {@code quarkus.oidc.public-key} is
 * {@link #publicKey()} (and its issuer and audience are these).
 *
 * <p>Where an OpenID Connect issuer runs (production), the issuer signs the tokens instead and this
 * class is not used.
 */
public final class TokenIssuer {

    /** {@code iss} of every token; the services' {@code quarkus.oidc.token.issuer} where this class signs. */
    public static final String ISSUER = "orderflow-local";
    /** {@code aud} of every token; the services' {@code quarkus.oidc.token.audience}. */
    public static final String AUDIENCE = "orderflow";
    /** The claim naming the caller's roles (the MicroProfile JWT name, read by Quarkus by default). */
    public static final String ROLES_CLAIM = "groups";
    /** The claim carrying a customer token's customer id. */
    public static final String CUSTOMER_ID_CLAIM = "customer_id";

    /** The signing key's file in a key directory (PKCS#8 PEM, readable by its owner only). */
    public static final String SIGNING_KEY_FILE = "token-signing-key.pem";
    /** The verification key's file beside it (X.509 PEM): what the services trust. */
    public static final String VERIFICATION_KEY_FILE = "token-verification-key.pem";

    private static final Duration DEFAULT_LIFETIME = Duration.ofHours(12);
    private static final String TEST_KEY_RESOURCE = "test-only-signing-key.pem";

    private final PrivateKey signingKey;
    private final PublicKey verificationKey;

    private TokenIssuer(PrivateKey signingKey, PublicKey verificationKey) {
        this.signingKey = signingKey;
        this.verificationKey = verificationKey;
    }

    /**
     * The issuer whose key is in {@code directory}, creating the key pair there first if there is
     * none (the local suite's key: made at its first start, kept across restarts).
     */
    public static TokenIssuer inDirectory(Path directory) {
        Path signing = directory.resolve(SIGNING_KEY_FILE);
        try {
            if (!Files.exists(signing)) {
                Files.createDirectories(directory);
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                KeyPair pair = generator.generateKeyPair();
                Path fresh = Files.createTempFile(directory, "signing", ".tmp");
                Files.setPosixFilePermissions(fresh, PosixFilePermissions.fromString("rw-------"));
                Files.writeString(fresh, pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
                Files.move(fresh, signing, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            TokenIssuer issuer = fromPem(Files.readString(signing));
            Files.writeString(directory.resolve(VERIFICATION_KEY_FILE), pem("PUBLIC KEY", issuer.verificationKey.getEncoded()));
            return issuer;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or create the token signing key in " + directory, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot create an RSA key pair", e);
        }
    }

    /**
     * The tests' issuer: a fixed key pair shipped with this jar, trusted by the services' %test
     * profile only ({@code %test.quarkus.oidc.public-key}). Never configure a deployment to trust it.
     */
    public static TokenIssuer forTests() {
        try (InputStream in = TokenIssuer.class.getResourceAsStream(TEST_KEY_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing resource " + TEST_KEY_RESOURCE);
            }
            return fromPem(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TokenIssuer fromPem(String pem) {
        try {
            String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
            KeyFactory factory = KeyFactory.getInstance("RSA");
            PrivateKey privateKey = factory.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
            RSAPrivateCrtKey crt = (RSAPrivateCrtKey) privateKey;
            PublicKey publicKey = factory.generatePublic(new RSAPublicKeySpec(crt.getModulus(), crt.getPublicExponent()));
            return new TokenIssuer(privateKey, publicKey);
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new IllegalStateException("Not an RSA private key in PKCS#8 PEM", e);
        }
    }

    /** The verification key, base64 of its X.509 encoding: the value of {@code quarkus.oidc.public-key}. */
    public String publicKey() {
        return Base64.getEncoder().encodeToString(verificationKey.getEncoded());
    }

    /** A token of customer {@code customerId} (subject and customer id), role {@code customer}. */
    public String customer(String customerId) {
        return token(customerId, List.of("customer"), customerId, DEFAULT_LIFETIME);
    }

    /** A token of another service (role {@code service}), for calls one service makes to another. */
    public String service(String name) {
        return token(name, List.of("service"), null, DEFAULT_LIFETIME);
    }

    /** A token of a person with these roles (e.g. viewer, operator, approver, inventory-manager). */
    public String user(String name, String... roles) {
        return token(name, List.of(roles), null, DEFAULT_LIFETIME);
    }

    /**
     * A token for {@code subject} with {@code roles}, valid from now for {@code lifetime} (negative:
     * already expired, for tests).
     *
     * @param customerId the customer a customer token acts for; null for anyone else
     */
    public String token(String subject, Collection<String> roles, String customerId, Duration lifetime) {
        return sign(claims(ISSUER, AUDIENCE, subject, roles, customerId, lifetime));
    }

    /** Claims as {@link #token} makes them, for tests that change one (issuer, audience) before {@link #sign}. */
    public static JwtClaims claims(String issuer, String audience, String subject, Collection<String> roles,
            String customerId, Duration lifetime) {
        Objects.requireNonNull(subject, "subject");
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer);
        claims.setAudience(audience);
        claims.setSubject(subject);
        claims.setJwtId(UUID.randomUUID().toString());
        long now = System.currentTimeMillis() / 1000;
        claims.setIssuedAt(org.jose4j.jwt.NumericDate.fromSeconds(now));
        claims.setExpirationTime(org.jose4j.jwt.NumericDate.fromSeconds(now + lifetime.toSeconds()));
        claims.setStringListClaim(ROLES_CLAIM, List.copyOf(roles));
        if (customerId != null) {
            claims.setStringClaim(CUSTOMER_ID_CLAIM, customerId);
        }
        return claims;
    }

    /** The claims signed with this issuer's key (RS256), as a compact JWS. */
    public String sign(JwtClaims claims) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(signingKey);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException("Cannot sign a token", e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }
}
