package dev.talus.server;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Password authentication as Cassandra's {@code PasswordAuthenticator} does it over the native
 * protocol: SASL {@code PLAIN}, whose one token is {@code [authzid] NUL user NUL password}. The
 * users are those of {@link ServerOptions.Builder#user}; their passwords are kept only as salted
 * SHA-256 digests and compared in constant time. Immutable and thread-safe.
 */
final class Authenticator {
  /** The authenticator class named in {@code AUTHENTICATE}, Cassandra's, which drivers expect. */
  static final String CLASS_NAME = "org.apache.cassandra.auth.PasswordAuthenticator";

  private final byte[] salt = new byte[16];
  private final Map<String, byte[]> digests = new HashMap<>();

  Authenticator(Map<String, String> users) {
    new SecureRandom().nextBytes(salt);
    users.forEach((user, password) -> digests.put(user, digest(password)));
  }

  private byte[] digest(String password) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      sha.update(salt);
      return sha.digest(password.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  /**
   * The user a SASL {@code PLAIN} token authenticates.
   *
   * @throws BadCredentialsException if the token is malformed, the user unknown or the password
   *     wrong (one message for all, as Cassandra's)
   */
  String authenticate(byte[] token) {
    if (token == null) {
      throw new BadCredentialsException("Authentication failed: no credentials were sent");
    }
    int first = indexOf(token, 0);
    int second = first < 0 ? -1 : indexOf(token, first + 1);
    if (second < 0) {
      throw new BadCredentialsException(
          "Authentication failed: the SASL PLAIN token must be [authzid] NUL user NUL password");
    }
    String user = new String(token, first + 1, second - first - 1, StandardCharsets.UTF_8);
    String password =
        new String(token, second + 1, token.length - second - 1, StandardCharsets.UTF_8);
    byte[] expected = digests.get(user);
    byte[] given = digest(password);
    if (!MessageDigest.isEqual(expected != null ? expected : new byte[given.length], given)
        || expected == null) {
      throw new BadCredentialsException(
          "Provided username " + user + " and/or password are incorrect");
    }
    Arrays.fill(token, (byte) 0);
    return user;
  }

  private static int indexOf(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == 0) {
        return i;
      }
    }
    return -1;
  }

  /** Refused credentials: Cassandra's {@code Bad_credentials} error ({@code 0x0100}). */
  static final class BadCredentialsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    static final int CODE = 0x0100;

    BadCredentialsException(String message) {
      super(message);
    }
  }
}
